import { LitElement, html, nothing } from "lit";
import { drawGraph } from "./graph";
import {
  dependencies, isManaged, recordKey, statusKey, trueCondition, workspaceKey,
  type RecordJSON, type Report, type Run, type RunEvent,
} from "./model";

interface Generation { generation: string; changed_at?: string; deleted?: boolean; data?: any }

/**
 * The control plane's page. Everything it shows arrives over one
 * EventSource (/api/events): records as the store's WatchList reports
 * them, and the reconciler's runs. It never polls and never reloads.
 */
class TerraneApp extends LitElement {
  static properties = {
    connection: { state: true }, selectedWorkspace: { state: true }, selectedInstance: { state: true },
    history: { state: true }, version: { state: true },
  };
  declare connection: string;
  declare selectedWorkspace: string;
  declare selectedInstance: string;
  declare history: Generation[];
  declare version: number;

  private records = new Map<string, RecordJSON>();
  private reports = new Map<string, Report>();
  private runs = new Map<string, Run>();
  private source?: EventSource;

  constructor() {
    super();
    this.connection = "connecting";
    this.selectedWorkspace = "";
    this.selectedInstance = "";
    this.history = [];
    this.version = 0;
  }

  // Light DOM, so the page's stylesheet applies and tests can read it.
  createRenderRoot() { return this; }

  connectedCallback() {
    super.connectedCallback();
    const source = new EventSource("/api/events");
    this.source = source;
    source.addEventListener("open", () => { this.connection = "live"; });
    source.addEventListener("error", () => { this.connection = "reconnecting"; });
    source.addEventListener("ready", () => { this.connection = "live"; this.changed(); });
    source.addEventListener("record", (e) => this.onRecord(JSON.parse((e as MessageEvent).data)));
    source.addEventListener("reports", (e) => {
      for (const r of JSON.parse((e as MessageEvent).data) ?? []) this.reports.set(r.Name, r);
      this.changed();
    });
    source.addEventListener("run", (e) => this.onRun(JSON.parse((e as MessageEvent).data)));
  }

  disconnectedCallback() {
    this.source?.close();
    super.disconnectedCallback();
  }

  private changed() { this.version++; }

  private onRecord(r: RecordJSON) {
    const key = recordKey(r);
    const before = this.records.get(key);
    if (r.op === "delete") this.records.delete(key); else this.records.set(key, r);
    if (r.kind === "ResourceInstance") this.trackIntents(before, r);
    if (!this.selectedWorkspace && r.kind === "Workspace") this.selectedWorkspace = workspaceKey(r.project, r.workspace);
    if (r.kind === "ResourceInstance" && this.selectedInstance === r.name && before?.generation !== r.generation) this.loadHistory();
    this.changed();
  }

  /** Another process's run shows as the intents it opens and closes. */
  private trackIntents(before: RecordJSON | undefined, after: RecordJSON) {
    const was = before?.data?.intent?.run_id as string | undefined;
    const now = after.op === "upsert" ? (after.data?.intent?.run_id as string | undefined) : undefined;
    if (now) {
      const run = this.runFor(now, after, "apply");
      run.inFlight.add(after.name);
      run.total = Math.max(run.total, run.inFlight.size + run.done.size);
    }
    if (was && was !== now) {
      const run = this.runs.get(was);
      if (run) {
        run.inFlight.delete(after.name);
        run.done.add(after.name);
        if (run.inFlight.size === 0) setTimeout(() => { this.runs.delete(was); this.changed(); }, 3000);
      }
    }
  }

  private runFor(id: string, where: { project: string; workspace: string }, what: string): Run {
    let run = this.runs.get(id);
    if (!run) {
      run = { id, project: where.project, workspace: where.workspace, what, total: 0, done: new Set(), inFlight: new Set() };
      this.runs.set(id, run);
    }
    return run;
  }

  private onRun(e: RunEvent) {
    switch (e.Kind) {
      case "run_started": {
        const run = this.runFor(e.RunID, { project: e.Project, workspace: e.Workspace }, `refresh of ${e.Name}`);
        run.total = this.instances(workspaceKey(e.Project, e.Workspace)).length;
        const report = this.reports.get(e.Name);
        if (report) this.reports.set(e.Name, { ...report, Running: true, RunID: e.RunID });
        break;
      }
      case "instance_refreshed":
        this.runs.get(e.RunID)?.done.add(e.Instance ?? "");
        break;
      case "apply_started":
        this.runFor(e.RunID, { project: e.Project, workspace: e.Workspace }, `auto-apply of ${e.Name}`);
        break;
      case "run_finished":
        this.runs.delete(e.RunID);
        if (e.Report) this.reports.set(e.Name, e.Report);
        break;
    }
    this.changed();
  }

  private workspaces(): { key: string; project: string; workspace: string; record?: RecordJSON; report?: Report }[] {
    const byKey = new Map<string, { key: string; project: string; workspace: string; record?: RecordJSON; report?: Report }>();
    for (const r of this.records.values()) {
      if (r.kind !== "Workspace") continue;
      const key = workspaceKey(r.project, r.workspace);
      byKey.set(key, { key, project: r.project, workspace: r.workspace, record: r });
    }
    for (const report of this.reports.values()) {
      const key = workspaceKey(report.Project, report.Workspace);
      const entry = byKey.get(key) ?? { key, project: report.Project, workspace: report.Workspace };
      entry.report = report;
      byKey.set(key, entry);
    }
    return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
  }

  private instances(wsKey: string): RecordJSON[] {
    return [...this.records.values()]
      .filter((r) => r.kind === "ResourceInstance" && workspaceKey(r.project, r.workspace) === wsKey)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private async select(name: string) {
    this.selectedInstance = name;
    await this.loadHistory();
  }

  private async loadHistory() {
    const [project, workspace] = this.selectedWorkspace.split("/");
    const q = new URLSearchParams({ project, workspace, name: this.selectedInstance });
    const response = await fetch(`/api/history?${q}`);
    this.history = response.ok ? await response.json() : [];
  }

  private async refresh(name: string) {
    await fetch(`/api/refresh?${new URLSearchParams({ name })}`, { method: "POST" });
  }

  render() {
    const workspaces = this.workspaces();
    return html`
      <header><strong>Terrane</strong><span class="live" data-testid="connection">${this.connection}</span></header>
      <main>
        <section>
          <h2>Workspaces</h2>
          ${workspaces.length === 0 ? html`<p class="muted" data-testid="no-workspaces">No workspaces visible to this token.</p>` : nothing}
          ${workspaces.map((ws) => this.renderWorkspaceEntry(ws))}
        </section>
        <div>${this.selectedWorkspace ? this.renderWorkspace(this.selectedWorkspace) : nothing}</div>
      </main>`;
  }

  private renderWorkspaceEntry(ws: { key: string; record?: RecordJSON; report?: Report }) {
    const summary = ws.record?.status?.[statusKey];
    const reconciled = summary?.conditions.find((c) => c.type === "Reconciled");
    const drifted = summary?.conditions.find((c) => c.type === "Drifted");
    return html`<span class="ws ${ws.key === this.selectedWorkspace ? "selected" : ""}" data-workspace=${ws.key}
        @click=${() => { this.selectedWorkspace = ws.key; this.selectedInstance = ""; }}>
      ${ws.key}
      ${reconciled ? html`<span class="cond cond-${reconciled.state === "TRUE" ? "InSync" : "Failed"}">${reconciled.reason}</span>` : nothing}
      ${drifted?.state === "TRUE" ? html`<span class="cond cond-Drifted">Drifted</span>` : nothing}
      ${ws.report ? html`<div class="muted">${ws.report.Name}: every ${ws.report.interval_s}s${ws.report.AutoApply ? `, auto-apply ${ws.report.AutoApply}` : ""}
        <button @click=${(e: Event) => { e.stopPropagation(); this.refresh(ws.report!.Name); }}>Refresh now</button></div>` : nothing}
    </span>`;
  }

  private renderWorkspace(wsKey: string) {
    const instances = this.instances(wsKey);
    const runs = [...this.runs.values()].filter((r) => workspaceKey(r.project, r.workspace) === wsKey);
    const summary = [...this.records.values()].find((r) => r.kind === "Workspace" && workspaceKey(r.project, r.workspace) === wsKey)?.status?.[statusKey];
    const nodes = instances.map((r) => ({ id: r.name, label: r.name, cls: `node-${trueCondition(r.status?.[statusKey])?.type ?? "None"}` }));
    const edges: [string, string][] = instances.flatMap((r) => dependencies(r).map((d) => [r.name, d] as [string, string]));
    return html`
      <section>
        <h2>${wsKey}</h2>
        ${summary ? summary.conditions.map((c) => html`<div class="muted">${c.type} ${c.state} (${c.reason}): ${c.message}</div>`) : html`<p class="muted">Not reconciled yet.</p>`}
      </section>
      ${runs.length ? html`<section data-testid="runs"><h2>Runs in progress</h2>${runs.map((run) => this.renderRun(run))}</section>` : nothing}
      <section>
        <h2>Resources</h2>
        <table data-testid="instances">
          <thead><tr><th>Instance</th><th>Condition</th><th>Reason</th><th>Last change</th><th>Checked</th></tr></thead>
          <tbody>${instances.map((r) => this.renderInstanceRow(r))}</tbody>
        </table>
      </section>
      ${this.selectedInstance ? this.renderDetail(instances.find((r) => r.name === this.selectedInstance)) : nothing}
      <section><h2>Dependencies</h2>${drawGraph(nodes, edges) ?? html`<p class="muted">No resources.</p>`}</section>`;
  }

  private renderRun(run: Run) {
    const total = Math.max(run.total, run.done.size + run.inFlight.size, 1);
    return html`<div class="run" data-run=${run.id}>
      <div>${run.what} <span class="muted">${run.id}</span> — ${run.done.size} of ${total} done</div>
      <div class="progress"><div style=${`width:${Math.round((100 * run.done.size) / total)}%`}></div></div>
      ${run.inFlight.size ? html`<div class="muted">In flight: ${[...run.inFlight].join(", ")}</div>` : nothing}
    </div>`;
  }

  private renderInstanceRow(r: RecordJSON) {
    const st = r.status?.[statusKey];
    const c = trueCondition(st);
    const stale = st && st.observed_generation !== r.generation;
    const kind = !isManaged(r.name) ? "Data" : (c?.type ?? "None");
    return html`<tr data-address=${r.name} data-condition=${kind} class=${r.name === this.selectedInstance ? "selected" : ""}
        @click=${() => this.select(r.name)}>
      <td>${r.name}${r.data?.intent ? html` <span class="muted">(${r.data.intent.operation} in progress)</span>` : nothing}</td>
      <td><span class="cond cond-${c?.type ?? "None"}">${isManaged(r.name) ? (c?.type ?? "not checked") : "data"}</span></td>
      <td title=${c?.message ?? ""}>${c?.reason ?? ""}${stale ? html` <span class="muted">(changed since)</span>` : nothing}</td>
      <td>${r.changed_at ? new Date(r.changed_at).toLocaleString() : ""}</td>
      <td>${st?.updated_at ? new Date(st.updated_at).toLocaleTimeString() : ""}</td>
    </tr>`;
  }

  private renderDetail(r?: RecordJSON) {
    if (!r) return nothing;
    const st = r.status?.[statusKey];
    return html`<section data-testid="detail">
      <h2>${r.name}</h2>
      ${st ? st.conditions.map((c) => html`<div class=${c.state === "TRUE" ? "" : "muted"}>${c.type} ${c.state} ${c.reason ?? ""}${c.message ? `: ${c.message}` : ""}</div>`) : nothing}
      <h2>Attributes</h2>
      ${r.data?.current ? html`<pre data-testid="attributes">${JSON.stringify(r.data.current.attributes, null, 2)}</pre>`
        : html`<p class="muted">Not readable here (the record's data is encrypted, or there is no current object).</p>`}
      <h2>Generations</h2>
      <table data-testid="history"><tbody>${this.history.map((g) => html`<tr>
        <td>${g.generation}</td><td>${g.changed_at ? new Date(g.changed_at).toLocaleString() : ""}</td>
        <td>${g.deleted ? "deleted" : ""}</td></tr>`)}</tbody></table>
      <p class="muted">Generations seen since this serve started; the store keeps only the current one.</p>
    </section>`;
  }
}

customElements.define("terrane-app", TerraneApp);
