import '@mantine/core/styles.css';
import './app.css';
import { createRoot } from 'react-dom/client';
import { Root } from './Root.js';

createRoot(document.getElementById('root')!).render(<Root />);
