/**
 * The counters behind `GET /v1/metrics`: work requests (vectorize and optimize) answered since
 * start, and their mean time from arrival to response. Health, metrics and docs are not counted.
 */
export class RequestStats {
  private count = 0;
  private totalMs = 0;

  record(durationMs: number): void {
    this.count += 1;
    this.totalMs += durationMs;
  }

  snapshot(): { request_count: number; avg_processing_ms: number } {
    const average = this.count === 0 ? 0 : this.totalMs / this.count;
    return { request_count: this.count, avg_processing_ms: Math.round(average * 100) / 100 };
  }
}
