/** How the dashboard writes times and numbers: absolute UTC in a tooltip, relative in the text. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}

export const utc = (iso: string) => `${iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}`;

export const count = (n: number) => n.toLocaleString('en-US');
