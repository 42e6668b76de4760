import dagre from "@dagrejs/dagre";
import { svg, type SVGTemplateResult } from "lit";
import { resourceOf } from "./model";

export interface Node {
  id: string;
  label: string;
  cls: string;
}

/** Lays out nodes and dependency edges (from depends on to) as an SVG. */
export function drawGraph(nodes: Node[], edges: [string, string][]): SVGTemplateResult | null {
  if (nodes.length === 0) return null;
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 12, ranksep: 40, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) g.setNode(n.id, { width: Math.max(90, n.label.length * 7), height: 26 });
  for (const [from, to] of edges) {
    // An instance depends on resources; draw the edge to each instance of it.
    for (const id of ids) if (id === to || resourceOf(id) === to) g.setEdge(id, from);
  }
  dagre.layout(g);
  const graph = g.graph();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return svg`<svg width=${graph.width ?? 0} height=${graph.height ?? 0} data-testid="graph">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
      <path d="M 0 0 L 10 5 L 0 10 z" fill="#9ca3af"></path></marker></defs>
    ${g.edges().map((e) => {
      const points = g.edge(e).points ?? [];
      const d = points.map((p, i) => `${i ? "L" : "M"}${p.x},${p.y}`).join(" ");
      return svg`<path d=${d} fill="none" stroke="#9ca3af" marker-end="url(#arrow)"></path>`;
    })}
    ${g.nodes().map((id) => {
      const n = g.node(id);
      const node = byId.get(id)!;
      return svg`<g transform=${`translate(${n.x - n.width / 2},${n.y - n.height / 2})`} data-node=${id}>
        <rect width=${n.width} height=${n.height} rx="4" class=${node.cls} fill="#fff" stroke="#6b7280"></rect>
        <text x="6" y="17">${node.label}</text></g>`;
    })}
  </svg>`;
}
