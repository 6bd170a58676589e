/**
 * The not-found page of a participant screen (the API answered 404: unknown, not a member, not
 * visible), titled as such. Loaded only when needed.
 */
import { useEffect } from 'react';
import ErrorPage from '../../components/ErrorPage.tsx';

export default function NotFound() {
  useEffect(() => {
    document.title = 'Page Not Found · Fieldwork';
  }, []);
  return <ErrorPage statusCode={404} />;
}
