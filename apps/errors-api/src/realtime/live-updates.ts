import { FailureLog, type Logger } from '@trove/service-kit';
import type { SharedState } from '@trove/shared-state';
import type { IssueChange } from '../ingest/event-writer.ts';
import { type IssueJson, issueJson } from '../issues/issue-json.ts';

export type LiveMessageType = 'IssueCreated' | 'IssueUpdated';

export interface LiveSocket {
  send(data: string): void;
  readonly readyState: number;
}

const CHANNEL = 'live';
const OPEN = 1;

/**
 * Issue updates for WebSocket clients. Every replica publishes to one shared-state channel and
 * every replica forwards what it hears to its own sockets, so a client sees updates from events
 * that any replica ingested.
 */
export class LiveUpdates {
  private readonly sockets = new Set<LiveSocket>();
  private unsubscribe?: () => Promise<void>;
  /** One line when publishing starts failing, one a minute while it does, one when it works again. */
  private readonly publishFailures = new FailureLog('publishing live updates to shared state');

  constructor(
    private readonly state: SharedState,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.state.subscribe(CHANNEL, (message) => {
      for (const socket of this.sockets) {
        if (socket.readyState === OPEN) socket.send(message);
      }
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  add(socket: LiveSocket): () => void {
    this.sockets.add(socket);
    return () => this.sockets.delete(socket);
  }

  async publish(type: LiveMessageType, issue: IssueJson): Promise<void> {
    await this.state.publish(CHANNEL, JSON.stringify({ type, issue }));
  }

  /** Writer listener: one message per issue per committed batch. */
  onIssueChanges = (changes: IssueChange[]): void => {
    for (const change of changes) {
      const type = change.created ? 'IssueCreated' : 'IssueUpdated';
      this.publish(type, issueJson(change.issue, change.issue.project_slug)).then(
        () => this.publishFailures.recovered(this.logger),
        (err) => this.publishFailures.failed(this.logger, err),
      );
    }
  };
}
