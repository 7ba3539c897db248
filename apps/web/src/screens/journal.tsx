import { ScreenFrame } from '../components/screen-frame';

/** Placeholder frame; a later issue completes this screen. */
export default function JournalScreen() {
  return (
    <ScreenFrame title="INTELLIGENCE VAULT" subtitle="Secure journal and photo vault">
      <div className="panel p-6">
        <p className="text-muted">This section is coming online.</p>
      </div>
    </ScreenFrame>
  );
}
