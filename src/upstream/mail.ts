/**
 * Outgoing mail through the configured SMTP server (LINTEL_SMTP_URL). nodemailer is loaded on the
 * first message: most servers never send one, and it holds some 6 MB of heap once loaded.
 */
import type { Config } from '../config.ts';
import { errors } from '../contract/error-codes.ts';

export interface MailMessage {
  from?: string;
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
}

/** Sends one message; throws `mail_not_configured` (503) when no server is configured, and the transport's error when sending fails. */
export async function sendMail(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, message: MailMessage): Promise<void> {
  if (!config.smtpUrl) throw errors.mail.notConfigured();
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(config.smtpUrl);
  try {
    await transport.sendMail({ ...message, from: message.from || config.mailFrom });
  } finally {
    transport.close();
  }
}
