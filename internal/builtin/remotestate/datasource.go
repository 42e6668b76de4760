package remotestate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/foreignstate"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/storeconfig"
	"github.com/terrane/terrane/internal/workdir"
)

// TypeName is the data source's type name.
const TypeName = "terraform_remote_state"

// DefaultWorkspace is the workspace read when none is given.
const DefaultWorkspace = "default"

// OpenWorkspaceFunc opens the records of a Terrane workspace in the store
// settings name, or, when settings is nil, in the working directory's own
// store, their data passing through cipher; the closer releases whatever it
// opened.
type OpenWorkspaceFunc func(ctx context.Context, settings *storeconfig.Settings, project, workspace string, cipher encrypted.Cipher) (*recordstore.Store, func() error, error)

// DataSource reads remote outputs. It is safe for concurrent use.
type DataSource struct {
	// OpenWorkspace opens workspaces for the "terrane" backend; without it
	// that backend is reported as unavailable.
	OpenWorkspace OpenWorkspaceFunc
	// Project is the project the "terrane" backend reads from when its
	// config names none.
	Project string
	// Encryption is the configuration's encryption: its
	// remote_state_data_sources targets decrypt what each data source
	// reads. Nil reads only unencrypted state.
	Encryption *encryption.Encryption
}

type addressKey struct{}

// ContextWithAddress tells Read which data source it reads for, so that
// it decrypts with that data source's remote_state_data_source target.
func ContextWithAddress(ctx context.Context, addr addrs.AbsResourceInstance) context.Context {
	return context.WithValue(ctx, addressKey{}, addr)
}

// target is the encryption target for the data source Read runs for: the
// remote_state_data_source block naming it ("NAME", "MODULE.NAME",
// "MODULE.NAME[KEY]"), or the default.
func (d *DataSource) target(ctx context.Context) *encryption.Target {
	if d.Encryption == nil {
		return nil
	}
	addr, _ := ctx.Value(addressKey{}).(addrs.AbsResourceInstance)
	return d.Encryption.RemoteState(selectors(addr)...)
}

// selectors names a data source the ways a remote_state_data_source block
// may: its module path (without "module.") and name, most specific first.
func selectors(addr addrs.AbsResourceInstance) []string {
	var withKeys, withoutKeys string
	for _, step := range addr.Module {
		withKeys += step.Name
		if step.Key != nil {
			withKeys += step.Key.String()
		}
		withKeys += "."
		withoutKeys += step.Name + "."
	}
	name := addr.Resource.Resource.Name
	var out []string
	if addr.Resource.Key != nil {
		out = append(out, withKeys+name+addr.Resource.Key.String())
	}
	out = append(out, withKeys+name)
	if withoutKeys != withKeys {
		if addr.Resource.Key != nil {
			out = append(out, withoutKeys+name+addr.Resource.Key.String())
		}
		out = append(out, withoutKeys+name)
	}
	return out
}

// Schema is the data source's schema, the same as Terraform's.
func Schema() schema.Schema {
	return schema.Schema{Block: &schema.Block{Attributes: map[string]*schema.Attribute{
		"backend":   {Type: cty.String, Required: true, Description: `Where the state is: "terrane" (a workspace of this store) or "local" (a state file).`},
		"config":    {Type: cty.DynamicPseudoType, Optional: true, Description: "The backend's settings: for terrane, the workspace and project to read and the backend block's arguments naming another store; path and workspace_dir for local."},
		"defaults":  {Type: cty.DynamicPseudoType, Optional: true, Description: "Values for outputs the state does not have."},
		"outputs":   {Type: cty.DynamicPseudoType, Computed: true, Description: "The root module outputs of the state."},
		"workspace": {Type: cty.String, Optional: true, Description: "The workspace to read; default when not set."},
	}}}
}

// settings is a configuration of the data source, decoded.
type settings struct {
	backend   string
	workspace string
	config    map[string]cty.Value
	defaults  cty.Value
}

// Validate checks a configuration without reading anything.
func (d *DataSource) Validate(config cty.Value) diags.Diagnostics {
	_, ds := decodeSettings(config)
	return ds
}

func decodeSettings(config cty.Value) (settings, diags.Diagnostics) {
	var ds diags.Diagnostics
	s := settings{workspace: DefaultWorkspace, config: map[string]cty.Value{}, defaults: cty.NullVal(cty.DynamicPseudoType)}
	if config.IsNull() || !config.Type().IsObjectType() {
		return s, ds.Append(diags.Errorf("Invalid terraform_remote_state configuration", "The configuration is not an object."))
	}
	backend := config.GetAttr("backend")
	if !backend.IsKnown() {
		return s, ds
	}
	if backend.IsNull() {
		return s, ds.Append(attrError("backend", `The backend argument is required: "terrane" to read a workspace of this store, or "local" to read a state file.`))
	}
	s.backend = backend.AsString()
	if ws := config.GetAttr("workspace"); ws.IsKnown() && !ws.IsNull() {
		s.workspace = ws.AsString()
	}
	if cfg := config.GetAttr("config"); cfg.IsKnown() && !cfg.IsNull() {
		if !cfg.Type().IsObjectType() && !cfg.Type().IsMapType() {
			return s, ds.Append(attrError("config", "The config argument must be an object, such as { path = \"../network/terraform.tfstate\" }."))
		}
		for name, val := range cfg.AsValueMap() {
			s.config[name] = val
		}
	}
	s.defaults = config.GetAttr("defaults")
	if !s.defaults.IsNull() && s.defaults.IsKnown() && !s.defaults.Type().IsObjectType() && !s.defaults.Type().IsMapType() {
		ds = ds.Append(attrError("defaults", "The defaults argument must be an object of output names to values."))
	}
	switch s.backend {
	case "terrane", "local":
	default:
		ds = ds.Append(attrError("backend", fmt.Sprintf(
			"Terrane reads remote state from the \"terrane\" backend (a workspace of this store) and the \"local\" backend (a state file); %q is not supported. Move that state in with \"terrane state push\" and read it with backend = \"terrane\".", s.backend)))
	}
	known := map[string][]string{"local": {"path", "workspace_dir"}, "terrane": append([]string{"project", "workspace"}, storeconfig.Arguments()...)}[s.backend]
	for name, val := range s.config {
		switch {
		case !slices.Contains(known, name) && known != nil:
			ds = ds.Append(attrError("config", fmt.Sprintf("The %s backend has no setting %q; its settings are %s.", s.backend, name, strings.Join(known, ", "))))
		case name == "endpoints":
		case val.IsKnown() && !val.IsNull() && !val.Type().Equals(cty.String):
			ds = ds.Append(attrError("config", fmt.Sprintf("The config setting %q must be a string.", name)))
		}
	}
	return s, ds
}

// otherStore returns the store the terrane backend's config names with
// the backend block's arguments, or nil when it names none: then the
// working directory's own store is read.
func (s settings) otherStore() (*storeconfig.Settings, error) {
	given := map[string]cty.Value{}
	for _, name := range storeconfig.Arguments() {
		if val, ok := s.config[name]; ok {
			given[name] = val
		}
	}
	if len(given) == 0 {
		return nil, nil
	}
	store, err := storeconfig.FromValues(given)
	if err != nil {
		return nil, err
	}
	return &store, nil
}

func attrError(attr, detail string) diags.Diagnostic {
	d := diags.Errorf("Invalid terraform_remote_state configuration", "%s", detail)
	d.AttributePath = cty.GetAttrPath(attr)
	return d
}

func (s settings) configString(name string) string {
	if val, ok := s.config[name]; ok && val.IsKnown() && !val.IsNull() && val.Type().Equals(cty.String) {
		return val.AsString()
	}
	return ""
}

// Read reads the outputs config names and returns the data source's new
// state: config with outputs set. As in OpenTofu, outputs the other state
// marks sensitive are not sensitive here, and a failed read ends with a
// plain error naming the data source.
func (d *DataSource) Read(ctx context.Context, config cty.Value) (cty.Value, diags.Diagnostics) {
	s, ds := decodeSettings(config)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	attrs := map[string]cty.Value{}
	if !s.defaults.IsNull() && s.defaults.IsKnown() {
		for name, val := range s.defaults.AsValueMap() {
			attrs[name] = val
		}
	}
	outputs, err := d.readOutputs(ctx, s)
	switch {
	case errors.Is(err, errNoState):
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Unable to find remote state",
			Detail: "No stored state was found for the given workspace in the given backend.", AttributePath: cty.GetAttrPath("workspace")})
		attrs = map[string]cty.Value{}
	case err != nil:
		ds = ds.Append(diags.Errorf("Unable to read remote state", "%s.", err))
	}
	for name, output := range outputs {
		attrs[name] = output.Value
	}
	result := config.AsValueMap()
	result["outputs"] = cty.ObjectVal(attrs)
	if ds.HasErrors() {
		addr, _ := ctx.Value(addressKey{}).(addrs.AbsResourceInstance)
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("%s: Unable to read remote state", addr), Standalone: true})
	}
	return cty.ObjectVal(result), ds
}

// errNoState is a backend that holds no state for the workspace.
var errNoState = errors.New("no stored state was found for the given workspace in the given backend")

func (d *DataSource) readOutputs(ctx context.Context, s settings) (map[string]*states.OutputValue, error) {
	target := d.target(ctx)
	if s.backend == "local" {
		return readStateFileOutputs(ctx, localStatePath(s), target)
	}
	if d.OpenWorkspace == nil {
		return nil, fmt.Errorf("the terrane backend is not available here")
	}
	project := s.configString("project")
	if project == "" {
		project = d.Project
	}
	workspace := s.workspace
	if name := s.configString("workspace"); name != "" {
		workspace = name
	}
	other, err := s.otherStore()
	if err != nil {
		return nil, fmt.Errorf("the store named in config: %w", err)
	}
	store, closeStore, err := d.OpenWorkspace(ctx, other, project, workspace, encryption.NewRecordCipher(target))
	if err != nil {
		return nil, fmt.Errorf("opening workspace %q of project %q: %w", workspace, project, err)
	}
	defer closeStore()
	snap, err := store.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading workspace %q of project %q: %w", workspace, project, err)
	}
	if snap.Workspace == nil {
		return nil, fmt.Errorf("project %q has no workspace %q: %w", project, workspace, errNoState)
	}
	return snap.State.Outputs, nil
}

// localStatePath is where Terraform's local backend keeps a workspace's
// state: path for the default workspace, workspace_dir/NAME/terraform.tfstate
// for the others (see foreignstate.Location).
func localStatePath(s settings) string {
	loc := foreignstate.Location{Kind: "local", Path: s.configString("path"), WorkspaceDir: s.configString("workspace_dir")}
	if loc.Path == "" {
		loc.Path = foreignstate.DefaultStateFilename
	}
	if loc.WorkspaceDir == "" {
		loc.WorkspaceDir = foreignstate.DefaultWorkspaceDir
	}
	return loc.StatePath("", s.workspace)
}

func readStateFileOutputs(ctx context.Context, path string, target *encryption.Target) (map[string]*states.OutputValue, error) {
	stored, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, errNoState)
	}
	if err != nil {
		return nil, fmt.Errorf("%w; set config.path to the state file to read", err)
	}
	plain, err := encryption.DecryptStateFile(ctx, target, stored, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	file, err := statefile.Read(bytes.NewReader(plain))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file.State.Outputs, nil
}

// WorkingDirWorkspaces opens workspaces of the store the working directory
// dir uses (the embedded one or the shared store its backend names),
// creating nothing, so that reading a workspace nobody applied in is
// reported instead of yielding no outputs.
func WorkingDirWorkspaces(dir string) OpenWorkspaceFunc {
	return func(_ context.Context, settings *storeconfig.Settings, project, workspace string, cipher encrypted.Cipher) (*recordstore.Store, func() error, error) {
		open := func(dir string) (*resourceservice.Service, func() error, error) {
			return workdir.OpenService(dir, cipher)
		}
		if settings != nil {
			open = func(dir string) (*resourceservice.Service, func() error, error) {
				return workdir.OpenSettings(dir, *settings, cipher)
			}
		}
		service, closer, err := open(dir)
		if err != nil {
			return nil, nil, err
		}
		return recordstore.New(service, project, workspace), closer, nil
	}
}
