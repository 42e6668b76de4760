package command

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateList is `terrane state list [-id=ID] [ADDR...]`: the addresses of
// the workspace's resource instances, those the addresses select when
// given, one a line.
func runStateList(streams Streams, args []string) int {
	var id *string
	c, fs := parseStateFlags(streams, "state list", args, func(fs *flag.FlagSet) {
		id = fs.String("id", "", "List only the instances whose object has this id")
	})
	if c == nil {
		return 1
	}
	targets, ds := parseTargets(fs.Args())
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	for _, entry := range stateedit.Select(snap.State, targets) {
		if *id != "" && objectID(entry.Instance) != *id {
			continue
		}
		fmt.Fprintln(streams.Stdout, entry.Addr)
	}
	return 0
}

// objectID is the "id" attribute of an instance's current object, read
// from its stored encoding without the provider's schema.
func objectID(inst *states.ResourceInstance) string {
	if inst == nil || inst.Current == nil {
		return ""
	}
	if inst.Current.AttrsFlat != nil {
		return inst.Current.AttrsFlat["id"]
	}
	var attrs struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(inst.Current.AttrsJSON, &attrs) != nil {
		return ""
	}
	if s, ok := attrs.ID.(string); ok {
		return s
	}
	return ""
}
