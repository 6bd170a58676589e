/**
 * Renders the toast store (src/stores/toasts.ts) once per page load; BaseLayout keeps it across
 * client-side navigations (transition:persist). Closing a toast (timer, Escape, swipe, button)
 * dismisses it in the store.
 */
import { useClientStore } from '../../lib/use-client-store.ts';
import { $toasts, dismissToast, type Toast as ToastItem } from '../../stores/toasts.ts';
import { Toast, ToastAction, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from '../../components/ui/toast.tsx';

const NONE: ToastItem[] = [];

export default function Toaster() {
  const toasts = useClientStore($toasts, NONE);
  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, action, open, type, duration, variant }) => (
        <Toast
          key={id}
          open={open}
          type={type}
          duration={duration}
          variant={variant}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
        >
          <div className="flex flex-col gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action && (
            <ToastAction altText={action.altText} onClick={action.onClick}>
              {action.label}
            </ToastAction>
          )}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport />
    </ToastProvider>
  );
}
