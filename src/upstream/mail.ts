/** Outgoing mail through the configured SMTP server (LINTEL_SMTP_URL). */
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { RestError } from '../contract/errors.ts';

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

export const mailNotConfigured = () =>
  new RestError('mail_not_configured', 'No mail server is configured: set LINTEL_SMTP_URL to send mail.', 503);

/** Sends one message; throws `mail_not_configured` (503) when no server is configured, and the transport's error when sending fails. */
export async function sendMail(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, message: MailMessage): Promise<void> {
  if (!config.smtpUrl) throw mailNotConfigured();
  const transport = nodemailer.createTransport(config.smtpUrl);
  try {
    await transport.sendMail({ ...message, from: message.from || config.mailFrom });
  } finally {
    transport.close();
  }
}
