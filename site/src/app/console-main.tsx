import { createRoot } from 'react-dom/client';
import { ConsoleApp } from '../features/console/console-app';
import { consoleAppId } from '../features/console/lib/console-session';
import { readBootData } from '../lib/boot-data';
import '../features/console/console.css';

// The operator console's entry (console.html, served at `/_/`): rendered in the browser only, for admins.

const container = document.getElementById('root');
if (!container) throw new Error('console.html has no #root element');
// The app's external providers come as boot data (absent: email and password only).
const boot = readBootData(document);
const choices = boot.signInProviders ? { providers: boot.signInProviders, ssoName: boot.ssoName } : undefined;
createRoot(container).render(<ConsoleApp appId={consoleAppId()} choices={choices} />);
