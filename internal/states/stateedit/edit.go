package stateedit

import (
	"bytes"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
)

// PlanRemove deletes the records of every instance a target selects,
// without touching the remote objects: state rm forgets them. An instance
// with an open create intent is removed like any other, which is how a
// user answers "this create may have happened" by forgetting it. Each
// target must select something, so a mistyped address is reported rather
// than silently doing nothing.
func PlanRemove(snap *recordstore.Snapshot, targets []Target) ([]addrs.AbsResourceInstance, []recordstore.InstanceChange, error) {
	seen := map[string]bool{}
	var removed []addrs.AbsResourceInstance
	var changes []recordstore.InstanceChange
	for _, target := range targets {
		entries := Select(snap.State, []Target{target})
		if len(entries) == 0 {
			return nil, nil, fmt.Errorf("the state has no resource instance at %s; run \"terrane state list\" to see the addresses it has", target)
		}
		for _, entry := range entries {
			key := entry.Addr.String()
			if seen[key] {
				continue
			}
			seen[key] = true
			prior := snap.InstanceVersions[key]
			removed = append(removed, entry.Addr)
			changes = append(changes, recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Prior: &prior})
		}
	}
	return removed, changes, nil
}

// PlanReplaceProvider rewrites the provider of every resource managed by
// from to to, keeping the provider configuration's module and alias. It
// returns the resources, in state order, and the changes to their
// instances.
func PlanReplaceProvider(snap *recordstore.Snapshot, from, to addrs.Provider) ([]addrs.AbsResource, []recordstore.InstanceChange) {
	var replaced []addrs.AbsResource
	var changes []recordstore.InstanceChange
	for _, res := range snap.State.SortedResources() {
		if res.ProviderConfig.Provider != from {
			continue
		}
		replaced = append(replaced, res.Addr)
		provider := res.ProviderConfig
		provider.Provider = to
		for _, key := range res.SortedInstanceKeys() {
			addr := res.Addr.Instance(key)
			prior := snap.InstanceVersions[addr.String()]
			changes = append(changes, recordstore.InstanceChange{Addr: addr, ProviderConfig: provider, Instance: res.Instances[key], Prior: &prior})
		}
	}
	return replaced, changes
}

// PushCheck says why a state file must not replace the workspace's state
// without -force, or returns nil. A workspace with no instances and no
// outputs accepts any file, as Terraform's empty states do.
func PushCheck(snap *recordstore.Snapshot, file *statefile.File) error {
	empty := len(snap.State.AllResourceInstances()) == 0 && len(snap.State.Outputs) == 0
	if snap.Workspace == nil || empty {
		return nil
	}
	// OpenTofu's checks and words: a state of no lineage is anyone's.
	legacy := file.Lineage == "" || snap.Workspace.Lineage == ""
	switch serial := int64(file.Serial); {
	case legacy:
	case file.Lineage != snap.Workspace.Lineage:
		return fmt.Errorf("cannot import state with lineage %q over unrelated state with lineage %q", file.Lineage, snap.Workspace.Lineage)
	case serial < snap.Workspace.Serial:
		return fmt.Errorf("cannot import state with serial %d over newer state with serial %d", file.Serial, snap.Workspace.Serial)
	case serial == snap.Workspace.Serial && !SameState(snap.State, file.State):
		return fmt.Errorf("cannot overwrite existing state with serial %d with a different state that has the same serial", file.Serial)
	}
	if open := statefile.OpenIntents(snap.State); len(open) > 0 {
		return fmt.Errorf("%s has an open intent: a provider call on it may or may not have happened. Resolve it first (\"terrane state rm %s\" forgets it), or use -force to replace it with the file's content",
			open[0], open[0])
	}
	return nil
}

// PlanPush makes the workspace's instances exactly those of state:
// instances the file does not have are deleted, instances whose content or
// provider differ are rewritten, new ones created; unchanged records are
// left alone so plans made before the push stay valid for them.
func PlanPush(snap *recordstore.Snapshot, state *states.State) ([]recordstore.InstanceChange, error) {
	var changes []recordstore.InstanceChange
	incoming := map[string]bool{}
	for _, entry := range state.AllResourceInstances() {
		key := entry.Addr.String()
		incoming[key] = true
		change := recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Instance: entry.Instance}
		if prior, ok := snap.InstanceVersions[key]; ok {
			same, err := sameRecord(snap.State, entry)
			if err != nil {
				return nil, err
			}
			if same {
				continue
			}
			change.Prior = &prior
		}
		changes = append(changes, change)
	}
	for _, entry := range snap.State.AllResourceInstances() {
		key := entry.Addr.String()
		if incoming[key] {
			continue
		}
		prior := snap.InstanceVersions[key]
		changes = append(changes, recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Prior: &prior})
	}
	return changes, nil
}

func sameRecord(current *states.State, entry states.ResourceInstanceEntry) (bool, error) {
	existing := current.Resource(entry.Addr.ContainingResource())
	incomingRec, err := recordstore.InstanceToRecord(entry.Addr, entry.ProviderConfig, entry.Instance)
	if err != nil {
		return false, err
	}
	existingRec, err := recordstore.InstanceToRecord(entry.Addr, existing.ProviderConfig, existing.Instances[entry.Addr.Resource.Key])
	if err != nil {
		return false, err
	}
	return proto.Equal(incomingRec, existingRec), nil
}

// AddressList joins addresses for a diagnostic, at most a few of them.
func AddressList(list []addrs.AbsResourceInstance) string {
	const shown = 5
	names := make([]string, 0, min(len(list), shown))
	for i, addr := range list {
		if i == shown {
			names = append(names, fmt.Sprintf("and %d more", len(list)-shown))
			break
		}
		names = append(names, addr.String())
	}
	return strings.Join(names, ", ")
}

// SameState reports whether two states would be written as the same state
// file, as OpenTofu compares snapshots.
func SameState(a, b *states.State) bool {
	var x, y bytes.Buffer
	if statefile.Write(&statefile.File{State: a}, &x) != nil || statefile.Write(&statefile.File{State: b}, &y) != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}
