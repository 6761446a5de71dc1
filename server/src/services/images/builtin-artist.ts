// Placeholder until the real artist lands: same signature, plain output.
export interface DrawnImage {
  contentType: 'image/svg+xml';
  bytes: Buffer;
}

/** drawImage renders an original image for prompt, identical for identical prompts. */
export function drawImage(prompt: string): DrawnImage {
  const hue = [...prompt].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 360, 7);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 960" width="960" height="960"><rect width="960" height="960" fill="hsl(${hue} 60% 30%)"/></svg>`;
  return { contentType: 'image/svg+xml', bytes: Buffer.from(svg) };
}
