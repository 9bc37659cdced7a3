/**
 * Sends a file as a request body with upload progress (fetch cannot report it; XMLHttpRequest can), and
 * keeps the connectivity store up to date: any answer means online, no answer means offline.
 */
import { markOffline, markOnline } from '../../stores/connectivity';

export type SendOutcome = { kind: 'answer'; status: number; body: unknown } | { kind: 'no-answer' };

export function sendFile(url: string, file: Blob, headers: Record<string, string>, onProgress: (fraction: number) => void): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      markOnline();
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      resolve({ kind: 'answer', status: xhr.status, body });
    };
    xhr.onerror = xhr.ontimeout = () => {
      markOffline();
      resolve({ kind: 'no-answer' });
    };
    xhr.send(file);
  });
}
