import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm start` serves on 5173, the API's default PUBLIC_SITE_URL (http://localhost:5173): the assistant's links,
// the e-mails' manage-booking links and the VNPay return all land here. The API is VITE_API_URL (default
// http://localhost:3000, `npm start` in the backend).
export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
  // react, react-dom and the AI SDK's chat client: one small app's worth, left in one chunk.
  build: { chunkSizeWarningLimit: 700 },
});
