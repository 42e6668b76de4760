package command

import (
	"context"
	"fmt"
	"io"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
)

// runStateShow is `terrane state show ADDR`: one resource instance's
// current and deposed objects as resource blocks, sensitive values hidden.
func runStateShow(streams Streams, args []string) int {
	fs := newFlagSet("state show", streams)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	c := &stateCommand{streams: streams, color: ui.ColorEnabled(*noColor)}
	if fs.NArg() != 1 {
		return c.fail(diags.Errorf("Exactly one address required",
			"terrane state show takes the address of one resource instance, such as aws_instance.web[0]; got %d arguments. Run \"terrane state list\" to see the addresses.", fs.NArg()))
	}
	addr, parseDiags := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if parseDiags.HasErrors() {
		return c.fail(diags.Errorf("Invalid address", "%q is not a resource instance address: %s. Give one instance, such as module.app.aws_instance.web[\"a\"].",
			fs.Arg(0), parseDiags[0].Detail))
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	res := snap.State.Resource(addr.ContainingResource())
	inst := snap.State.ResourceInstance(addr)
	if inst == nil {
		detail := fmt.Sprintf("Workspace %q has no resource instance at %s. Run \"terrane state list\" to see the addresses it has.", c.workspace, addr)
		if res != nil && addr.Resource.Key == addrs.NoKey {
			detail = fmt.Sprintf("%s has %d instances; name one of them, such as %s.", addr, len(res.Instances), res.Addr.Instance(res.SortedInstanceKeys()[0]))
		}
		return c.fail(diags.Errorf("No instance found", "%s", detail))
	}
	schemas, schemaDiags := loadSchemas(ctx, ".", map[addrs.Provider]bool{res.ProviderConfig.Provider: true})
	ds := schemaDiags
	if inst.Intent != nil {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Provider call may have happened", Address: addr.String(),
			Detail: fmt.Sprintf("A %s of %s began in run %s and its outcome was never recorded. Import the object if it exists, or run \"terrane state rm %s\" to forget it.",
				inst.Intent.Operation, addr, inst.Intent.RunID, addr)})
	}
	ds = ds.Append(showInstance(streams.Stdout, res, addr, inst, schemas, c.color))
	if len(ds) > 0 {
		ui.WriteDiagnostics(streams.Stderr, ds, nil, c.color)
	}
	if ds.HasErrors() {
		return 1
	}
	return 0
}

func showInstance(w io.Writer, res *states.Resource, addr addrs.AbsResourceInstance, inst *states.ResourceInstance, schemas *providers.Schemas, color bool) diags.Diagnostics {
	var ds diags.Diagnostics
	resource := addr.Resource.Resource
	keyword := "resource"
	if resource.Mode == addrs.DataResourceMode {
		keyword = "data"
	}
	write := func(heading string, obj *states.ResourceInstanceObjectSrc) {
		val, err := decodeForShow(obj, res.ProviderConfig.Provider, resource, schemas)
		if err != nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Cannot decode object", Address: addr.String(), Detail: err.Error()})
			return
		}
		if color {
			heading = "\x1b[1m" + heading + "\x1b[0m"
		}
		if obj.Status == states.ObjectTainted {
			heading += " (tainted)"
		}
		fmt.Fprintf(w, "# %s:\n%s %q %q {\n", heading, keyword, resource.Type, resource.Name)
		writeAttributes(w, val)
		fmt.Fprint(w, "}\n")
	}
	if inst.Current != nil {
		write(addr.String(), inst.Current)
	}
	for _, key := range inst.SortedDeposedKeys() {
		write(fmt.Sprintf("%s (deposed object %s)", addr, key), inst.Deposed[key])
	}
	return ds
}

// decodeForShow decodes an object with its type's schema, marking what
// the schema calls sensitive; without the provider installed it falls back
// to the types the stored JSON implies and the recorded sensitive paths.
func decodeForShow(obj *states.ResourceInstanceObjectSrc, provider addrs.Provider, resource addrs.Resource, schemas *providers.Schemas) (cty.Value, error) {
	resSchema, ok := schemas.ResourceType(provider, resource.Mode == addrs.DataResourceMode, resource.Type)
	if !ok {
		if obj.AttrsJSON == nil {
			return cty.NilVal, fmt.Errorf("provider %s is not installed and the object is in the legacy flatmap form; run \"terrane init\" to install the provider", provider)
		}
		implied, err := ctyjson.ImpliedType(obj.AttrsJSON)
		if err != nil {
			return cty.NilVal, fmt.Errorf("the stored attributes are not valid JSON: %w", err)
		}
		decoded, err := obj.Decode(implied, cty.NilType)
		if err != nil {
			return cty.NilVal, err
		}
		return decoded.Value, nil
	}
	decoded, err := obj.Decode(resSchema.Block.ImpliedType(), cty.NilType)
	if err != nil {
		return cty.NilVal, err
	}
	val := decoded.Value
	if paths := resSchema.Block.SensitivePaths(val); len(paths) > 0 {
		pathMarks := make([]cty.PathValueMarks, len(paths))
		for i, path := range paths {
			pathMarks[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
		}
		val = val.MarkWithPaths(pathMarks)
	}
	return val, nil
}
