// Package workdir manages the working directory beside a configuration: the
// .terrane/ directory holding the embedded state store (state.db) and the
// installed provider packages (providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH),
// the current project and workspace, and the provider factories a run uses —
// each an installed package checked against the dependency lock file (a
// Pulumi sub-package being its base package made into the sub-package the
// lock records) — or, for commands that need no installation (validate,
// providers schema), each found by discovery (ResolveProviders).
package workdir
