import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/shared/languages.ts';
import { atMostCharacters, MESSAGES } from '../../../src/shared/messages.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../../src/shared/limits.ts';
import { CONTACT_MESSAGES } from '../../../src/shared/schemas/contact-messages.ts';
import { SIGN_IN_MESSAGES } from '../../../src/shared/schemas/sign-in.ts';
import { RECOVERY_CODE_MESSAGE, TOTP_CODE_MESSAGE } from '../../../src/shared/schemas/second-factors.ts';
import { ENTRY_EXPORT_DAYS_MESSAGE } from '../../../src/shared/entry-exports.ts';
import { COMMON_PASSWORD_MESSAGE } from '../../../src/server/services/common-passwords.ts';
import { knownValidationTexts, translateValidation } from '../../../src/shared/validation-words.ts';
import { morePointsNeeded, REDEMPTION_REFUSALS, REWARD_PROVIDER_FAILED, REWARD_UNAVAILABLE } from '../../../src/shared/rewards.ts';
import { pointsText } from '../../../src/shared/points.ts';
import {
  MEDIA_MESSAGES,
  PHOTO_NOT_FOUND_MESSAGE,
  PHOTO_NOT_VIDEO_MESSAGE,
  UPLOAD_MESSAGES,
  VIDEO_MESSAGES,
  VIDEO_NOT_FOUND_MESSAGE,
  VIDEO_NOT_PHOTO_MESSAGE,
} from '../../../src/shared/media.ts';
import { GALLERY_MESSAGES } from '../../../src/shared/gallery.ts';
import { ANNOUNCEMENT_MESSAGES } from '../../../src/shared/announcements.ts';
import { INVITATION_USED_MESSAGE } from '../../../src/shared/tokens.ts';
import { TOO_MANY_PASSKEYS } from '../../../src/shared/second-factors.ts';
import { FORM_MESSAGES } from '../../../src/shared/forms/validate.ts';
import { WEBHOOK_URL_MESSAGES } from '../../../src/shared/webhook-url.ts';

/** Every English validation message of the sources, from their own constants. */
const SOURCE_MESSAGES: string[] = [
  ...Object.values(MESSAGES),
  atMostCharacters(NAME_MAX_LENGTH),
  atMostCharacters(EMAIL_MAX_LENGTH),
  ...Object.values(CONTACT_MESSAGES),
  ...Object.values(SIGN_IN_MESSAGES),
  TOTP_CODE_MESSAGE,
  RECOVERY_CODE_MESSAGE,
  COMMON_PASSWORD_MESSAGE,
  ENTRY_EXPORT_DAYS_MESSAGE,
  // Texts of src/shared the server sends and the browser shows (messages/common)
  ...Object.values(REDEMPTION_REFUSALS),
  REWARD_PROVIDER_FAILED,
  ...Object.values(REWARD_UNAVAILABLE),
  morePointsNeeded(1),
  morePointsNeeded(1250),
  pointsText(1),
  pointsText(1250),
  ...Object.values(MEDIA_MESSAGES),
  ...Object.values(UPLOAD_MESSAGES),
  ...Object.values(VIDEO_MESSAGES).filter((message) => typeof message === 'string'),
  VIDEO_MESSAGES.tooLong(45),
  VIDEO_MESSAGES.tooLong(60),
  VIDEO_MESSAGES.tooLong(90),
  VIDEO_MESSAGES.tooLong(600),
  PHOTO_NOT_FOUND_MESSAGE,
  VIDEO_NOT_FOUND_MESSAGE,
  PHOTO_NOT_VIDEO_MESSAGE,
  VIDEO_NOT_PHOTO_MESSAGE,
  ...Object.values(GALLERY_MESSAGES),
  ...Object.values(ANNOUNCEMENT_MESSAGES),
  INVITATION_USED_MESSAGE,
  TOO_MANY_PASSKEYS,
  ...Object.values(WEBHOOK_URL_MESSAGES),
  ...Object.values(FORM_MESSAGES).filter((message) => typeof message === 'string'),
  FORM_MESSAGES.exclusive('None of these'),
  FORM_MESSAGES.chooseAtLeast(2),
  FORM_MESSAGES.chooseAtMost(3),
  FORM_MESSAGES.videosAtLeast(2),
  FORM_MESSAGES.videosAtMost(3),
  FORM_MESSAGES.numberFromTo(-5, 10),
  FORM_MESSAGES.numberAtLeast(0.5),
  FORM_MESSAGES.numberAtMost(1000),
  FORM_MESSAGES.scaleStep(0, 10, 0.5),
  FORM_MESSAGES.dateOnOrAfter('today'),
  FORM_MESSAGES.dateOnOrAfter('2026-03-05'),
  FORM_MESSAGES.dateOnOrBefore('today'),
  FORM_MESSAGES.dateOnOrBefore('2026-12-31'),
  FORM_MESSAGES.photosAtLeast(1),
  FORM_MESSAGES.photosAtLeast(3),
  FORM_MESSAGES.photosAtMost(1),
  FORM_MESSAGES.photosAtMost(10),
];

describe('translateValidation (issue 31: the English validation messages are the keys)', () => {
  it('maps every English validation message to a message whose English text is identical', () => {
    for (const text of [...SOURCE_MESSAGES, ...knownValidationTexts()]) {
      expect(translateValidation(text, 'en')).toBe(text);
      // Without a language: the page's, English here (no document, no prerender).
      expect(translateValidation(text)).toBe(text);
    }
  });

  it('knows every source message (each says something else in every other language)', () => {
    for (const text of [...SOURCE_MESSAGES, ...knownValidationTexts()]) {
      for (const language of LANGUAGES.filter((language) => language !== 'en'))
        expect(translateValidation(text, language), `${text} (${language})`).not.toBe(text);
    }
  });

  it('words them in the language asked for, numbers in its digits', () => {
    expect(translateValidation(MESSAGES.required, 'de')).toBe('Erforderlich');
    expect(translateValidation(MESSAGES.passwordsDoNotMatch, 'de')).toBe('Die Passwörter stimmen nicht überein');
    expect(translateValidation(atMostCharacters(100), 'de')).toBe('Höchstens 100 Zeichen');
    expect(translateValidation(CONTACT_MESSAGES.messageTooLong, 'ar')).toBe(`يجب ألا يتجاوز النص ${(5000).toLocaleString('ar', { useGrouping: false })} حرف`);
  });

  it('words a video’s length limit in the language', () => {
    expect(translateValidation(VIDEO_MESSAGES.tooLong(90), 'de')).toBe('Dieses Video ist länger als 1 Minute 30 Sekunden');
    expect(translateValidation(VIDEO_MESSAGES.tooLong(180), 'es')).toBe('Este vídeo dura más de 3 minutos');
    expect(translateValidation(VIDEO_MESSAGES.tooLong(45), 'ar')).toBe(`هذا الفيديو أطول من ${(45).toLocaleString('ar')} ثانية`);
  });

  it('leaves any other text as it is', () => {
    expect(translateValidation('Something only this screen says', 'de')).toBe('Something only this screen says');
    expect(translateValidation('Erforderlich', 'de')).toBe('Erforderlich');
    expect(translateValidation('At most many characters', 'de')).toBe('At most many characters');
  });
});
