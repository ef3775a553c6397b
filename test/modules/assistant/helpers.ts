/** The UI message stream chunks of an SSE body (`data: {json}` events, `data: [DONE]` last). */
export function sseChunks(text: string): { chunks: Array<Record<string, any>>; done: boolean } {
  const chunks: Array<Record<string, any>> = [];
  let done = false;
  for (const event of text.split('\n\n')) {
    const data = event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
    if (!data) continue;
    if (data === '[DONE]') done = true;
    else chunks.push(JSON.parse(data));
  }
  return { chunks, done };
}

/** The answer's text: every text-delta of the stream, in order. */
export const streamedText = (chunks: Array<Record<string, any>>) => chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join('');

export const userMessage = (text: string, id = 'm1') => ({ id, role: 'user', parts: [{ type: 'text', text }] });
