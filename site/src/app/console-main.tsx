import { createRoot } from 'react-dom/client';
import { ConsoleApp } from '../features/console/console-app';
import { consoleAppId } from '../features/console/lib/console-session';
import '../features/console/console.css';

// The operator console's entry (console.html, served at `/_/`): rendered in the browser only, for admins.

const container = document.getElementById('root');
if (!container) throw new Error('console.html has no #root element');
createRoot(container).render(<ConsoleApp appId={consoleAppId()} />);
