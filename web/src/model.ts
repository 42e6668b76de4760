// The records and runs the page knows, kept up to date from the server's
// event stream (internal/web/events.go).

export const statusKey = "terrane.reconcile";

export interface Condition {
  type: string;
  state: "TRUE" | "FALSE" | "UNKNOWN";
  reason?: string;
  message?: string;
}

export interface Status {
  observed_generation: string;
  updated_at?: string;
  conditions: Condition[];
}

export interface RecordJSON {
  op: "upsert" | "delete";
  kind: string;
  project: string;
  workspace: string;
  name: string;
  uid?: string;
  generation?: string;
  changed_at?: string;
  version?: string;
  status?: Record<string, Status>;
  data?: any;
}

export interface Outcome {
  Kind: string;
  Reason: string;
  Message: string;
  DriftedPaths?: string[];
}

export interface Report {
  Name: string;
  Project: string;
  Workspace: string;
  Dir: string;
  AutoApply: string;
  RunID: string;
  Running: boolean;
  Started: string;
  duration_ms: number;
  interval_s: number;
  Failure?: Outcome | null;
  AutoApplied?: Outcome | null;
  Error?: string;
  Tally: { InSync: number; Drifted: number; Missing: number; Failed: number };
}

export interface RunEvent {
  Kind: string;
  Name: string;
  Project: string;
  Workspace: string;
  RunID: string;
  Instance?: string;
  Outcome?: Outcome;
  Report?: Report;
}

/** A run in progress: the reconciler's own, or another's seen by its intents. */
export interface Run {
  id: string;
  project: string;
  workspace: string;
  what: string;
  total: number;
  done: Set<string>;
  inFlight: Set<string>;
}

export function workspaceKey(project: string, workspace: string): string {
  return `${project}/${workspace}`;
}

export function recordKey(r: { kind: string; project: string; workspace: string; name: string }): string {
  return `${r.kind}|${r.project}/${r.workspace}|${r.name}`;
}

/** The condition that holds: the one whose state is TRUE. */
export function trueCondition(status?: Status): Condition | undefined {
  return status?.conditions.find((c) => c.state === "TRUE");
}

export function isManaged(name: string): boolean {
  return !/(^|\.)data\./.test(name.replace(/\[[^\]]*\]/g, ""));
}

/** The resource addresses an instance's current object depends on. */
export function dependencies(r: RecordJSON): string[] {
  return r.data?.current?.dependencies ?? [];
}

/** The resource (without instance key) an instance address belongs to. */
export function resourceOf(instance: string): string {
  return instance.replace(/\[[^\]]*\]$/, "");
}
