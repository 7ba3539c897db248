import { ScreenFrame } from '../components/screen-frame';

/** Placeholder frame; a later issue completes this screen. */
export default function BonaparteScreen() {
  return (
    <ScreenFrame title="BONAPARTE" subtitle="Balance">
      <div className="panel p-6">
        <p className="text-muted">This section is coming online.</p>
      </div>
    </ScreenFrame>
  );
}
