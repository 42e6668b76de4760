package command

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
)

// runStatus is `terrane status [ADDR]`: it prints the conditions the
// reconciler of a `terrane serve` last recorded for the workspace and its
// resource instances (all of them, or those at or under ADDR).
func runStatus(streams views.Streams, args []string) int {
	var opts watchOptions
	var workspace string
	flags := flag.NewFlagSet("status", flag.ContinueOnError)
	flags.SetOutput(streams.Stderr)
	flags.StringVar(&workspace, "workspace", "", "workspace to show; default: the selected one")
	addStoreFlags(flags, &opts)
	flags.BoolVar(&opts.jsonOutput, "json", false, "print the statuses as JSON")
	// Taken as every command takes it; status writes no colour to take out.
	flags.Bool("no-color", false, "disable colour in the output")
	if err := flags.Parse(args); err != nil {
		return 1
	}
	if flags.NArg() > 1 {
		fmt.Fprintf(streams.Stderr, "Error: status takes at most one resource address, got %q\n", strings.Join(flags.Args(), " "))
		return 1
	}
	if err := showStatus(context.Background(), opts, workspace, flags.Arg(0), streams.Stdout); err != nil {
		fmt.Fprintf(streams.Stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// statusView is one record's reconciler status, as status -json prints it.
type statusView struct {
	Name               string                  `json:"name"`
	Generation         string                  `json:"generation"`
	ObservedGeneration string                  `json:"observed_generation,omitempty"`
	UpdatedAt          *time.Time              `json:"updated_at,omitempty"`
	Conditions         []*pbresource.Condition `json:"-"`
	ConditionsJSON     []conditionView         `json:"conditions"`
}

type conditionView struct {
	Type    string `json:"type"`
	State   string `json:"state"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

func newStatusView(res *pbresource.Resource) statusView {
	return newKeyStatusView(res, reconcile.StatusKey)
}

// newKeyStatusView is the view of one status key of res.
func newKeyStatusView(res *pbresource.Resource, key string) statusView {
	view := statusView{Name: res.GetId().GetName(), Generation: res.GetGeneration(), ConditionsJSON: []conditionView{}}
	st := res.GetStatus()[key]
	if st == nil {
		return view
	}
	view.ObservedGeneration, view.Conditions = st.GetObservedGeneration(), st.GetConditions()
	if st.GetUpdatedAt() != nil {
		at := st.GetUpdatedAt().AsTime()
		view.UpdatedAt = &at
	}
	for _, c := range st.GetConditions() {
		view.ConditionsJSON = append(view.ConditionsJSON, conditionView{Type: c.GetType(), State: strings.TrimPrefix(c.GetState().String(), "STATE_"), Reason: c.GetReason(), Message: c.GetMessage()})
	}
	return view
}

func showStatus(ctx context.Context, opts watchOptions, workspace, prefix string, out io.Writer) error {
	project, err := workdir.Project()
	if err != nil {
		return err
	}
	if workspace == "" {
		if workspace, err = workdir.CurrentWorkspace("."); err != nil {
			return err
		}
	}
	backend, err := openWatchBackend(opts)
	if err != nil {
		return err
	}
	defer backend.Close()
	tenancy := records.Tenancy(project, workspace)
	instances, err := backend.List(ctx, store.EventualConsistency, records.ResourceInstanceType, tenancy, prefix)
	if err != nil {
		return fmt.Errorf("listing the resource instances of workspace %q: %w", workspace, err)
	}
	instances = withinAddress(instances, prefix)
	wsRecord, err := backend.Read(ctx, store.EventualConsistency, records.WorkspaceID(project, workspace))
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("reading workspace %q: %w", workspace, err)
	}
	if prefix != "" && len(instances) == 0 {
		return fmt.Errorf("no resource instance at %s in workspace %q", prefix, workspace)
	}
	if opts.jsonOutput {
		doc := map[string]any{"project": project, "workspace": workspace, "instances": []statusView{}}
		if wsRecord != nil {
			doc["summary"] = newStatusView(wsRecord)
		}
		views := make([]statusView, len(instances))
		for i, res := range instances {
			views[i] = newStatusView(res)
		}
		doc["instances"] = views
		return json.NewEncoder(out).Encode(doc)
	}
	return printStatuses(out, project, workspace, wsRecord, instances)
}

// withinAddress keeps the instances at prefix or inside it: ADDR
// tpf_thing.web matches tpf_thing.web[0] but not tpf_thing.web2.
func withinAddress(list []*pbresource.Resource, prefix string) []*pbresource.Resource {
	if prefix == "" {
		return list
	}
	var out []*pbresource.Resource
	for _, res := range list {
		rest := strings.TrimPrefix(res.GetId().GetName(), prefix)
		if rest == "" || rest[0] == '[' || rest[0] == '.' {
			out = append(out, res)
		}
	}
	return out
}

func printStatuses(out io.Writer, project, workspace string, wsRecord *pbresource.Resource, instances []*pbresource.Resource) error {
	if wsRecord == nil || wsRecord.GetStatus()[reconcile.StatusKey] == nil {
		fmt.Fprintf(out, "Workspace %s/%s: not reconciled yet (no `terrane serve -reconcile` has refreshed it).\n", project, workspace)
	} else {
		view := newStatusView(wsRecord)
		fmt.Fprintf(out, "Workspace %s/%s%s\n", project, workspace, sinceText(view.UpdatedAt))
		for _, c := range view.ConditionsJSON {
			fmt.Fprintf(out, "  %s %s (%s): %s\n", c.Type, c.State, c.Reason, c.Message)
		}
	}
	if len(instances) == 0 {
		return nil
	}
	sort.Slice(instances, func(i, j int) bool { return instances[i].GetId().GetName() < instances[j].GetId().GetName() })
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "INSTANCE\tCONDITION\tREASON\tMESSAGE")
	for _, res := range instances {
		view := newStatusView(res)
		condition, reason, message := "-", "-", "not refreshed by a reconciler yet"
		if c := reconcile.TrueCondition(res.GetStatus()[reconcile.StatusKey]); c != nil {
			condition, reason, message = c.GetType(), c.GetReason(), c.GetMessage()
		}
		if view.ObservedGeneration != "" && view.ObservedGeneration != view.Generation {
			message = "(changed since it was observed) " + message
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", view.Name, condition, reason, message)
	}
	return tw.Flush()
}

func sinceText(at *time.Time) string {
	if at == nil {
		return ""
	}
	return fmt.Sprintf(" (as of %s)", at.UTC().Format(time.RFC3339))
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
