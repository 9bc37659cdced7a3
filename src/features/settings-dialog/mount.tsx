/** Loaded on demand from the navbar: React and the dialog download only when a member opens settings. */
import { createRoot, type Root } from 'react-dom/client';
import SettingsDialog from './SettingsDialog';

let root: Root | undefined;

export function openSettingsDialog(trigger: HTMLElement) {
  if (root) return;
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  root.render(
    <SettingsDialog
      onClosed={() => {
        // Unmount after the close event finishes, then give focus back to the name button.
        queueMicrotask(() => {
          root?.unmount();
          root = undefined;
          host.remove();
          trigger.focus();
        });
      }}
    />,
  );
}
