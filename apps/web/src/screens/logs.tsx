import { ScreenFrame } from '../components/screen-frame';

/** Placeholder frame; a later issue completes this screen. */
export default function LogsScreen() {
  return (
    <ScreenFrame title="LOGS" subtitle="Access Attempt Monitoring System">
      <div className="panel p-6">
        <p className="text-muted">This section is coming online.</p>
      </div>
    </ScreenFrame>
  );
}
