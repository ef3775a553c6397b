import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm start` serves on STOREFRONT_PORT (default 5173, the API's default PUBLIC_SITE_URL, http://localhost:5173):
// the assistant's links, the e-mails' manage-booking links and the VNPay return all land here. On another port,
// start the API with PUBLIC_SITE_URL (and WAITLIST_OFFER_URL) naming it. The port is strict: when it is taken, Vite
// stops with "Port 5173 is already in use" instead of moving to another port the API's links would not know.
// The API is VITE_API_URL (default http://localhost:3000, `npm start` in the backend).
const port = Number(process.env.STOREFRONT_PORT) || 5173;
export default defineConfig({
  plugins: [react()],
  server: { port, strictPort: true },
  preview: { port, strictPort: true },
  // react, react-dom and the AI SDK's chat client: one small app's worth, left in one chunk.
  build: { chunkSizeWarningLimit: 700 },
});
