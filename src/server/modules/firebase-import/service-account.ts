/**
 * The service-account key file `--service-account` names (Firebase console → Project settings → Service
 * accounts → Generate new private key). Checked here so a wrong file gets one clear line before any
 * request to Google. The key is read from the file only and kept in memory: nothing here logs it, and
 * messages name fields, never values.
 */
import { createPrivateKey } from 'node:crypto';
import { z } from '../../../shared/zod';
import { readJsonFile } from '../../json-file';

export class ServiceAccountError extends Error {}

export interface ServiceAccountKey {
  projectId: string | undefined;
  clientEmail: string;
  privateKey: string;
}

const keySchema = z.object({
  type: z.literal('service_account', { error: 'is not "service_account"' }),
  project_id: z.string().trim().min(1).optional(),
  client_email: z.string({ error: 'is missing' }).trim().pipe(z.email({ error: 'is not an email address' })),
  private_key: z
    .string({ error: 'is missing' })
    .refine((k) => k.includes('-----BEGIN PRIVATE KEY-----') && k.includes('-----END PRIVATE KEY-----'), { error: 'is not a PEM private key', abort: true })
    // The markers are not enough: firebase-admin parses the key only once reading starts, and its failure
    // is a stack trace. Google's keys are RSA (they sign RS256 tokens).
    .refine(isRsaPrivateKey, { error: 'is not a usable private key (its PEM text does not parse as an RSA key: is the file cut or edited?)' }),
});

function isRsaPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey({ key: pem, format: 'pem' }).asymmetricKeyType === 'rsa';
  } catch {
    return false; // OpenSSL's reason, not worth a line: the owner's fix is a new key file either way
  }
}

export function readServiceAccountKey(file: string): ServiceAccountKey {
  const read = readJsonFile(file);
  if (!read.ok) {
    // Not the parser's message: it may quote part of the file, which may be the key.
    throw new ServiceAccountError('unreadable' in read ? `Cannot read the service-account key ${file}: ${read.unreadable}` : `${file} is not a service-account key: it is not JSON`);
  }
  const parsed = keySchema.safeParse(read.value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.') || 'the file'} ${i.message}`);
    throw new ServiceAccountError(`${file} is not a service-account key (Firebase console → Project settings → Service accounts → Generate new private key): ${fields.join('; ')}`);
  }
  return { projectId: parsed.data.project_id, clientEmail: parsed.data.client_email, privateKey: parsed.data.private_key };
}
