import { ScreenFrame } from '../components/screen-frame';
import { ShieldIcon } from '../components/icons';

/** The command center. A later issue fills in its cards (spec section 2.5). */
export default function DashboardScreen() {
  return (
    <ScreenFrame title="COMMAND CENTER" subtitle="Daily mission control" icon={<ShieldIcon />}>
      <div className="panel p-6">
        <p className="text-muted">Mission systems are coming online. Open TARGETS to manage your objectives.</p>
      </div>
    </ScreenFrame>
  );
}
