package moduletest

import "sync"

// carriedOverrides are the file-level override_resource, override_data and
// override_module blocks that stay on the configuration under test after
// their file is done. OpenTofu applies a file's overrides to the shared
// configuration before each run and afterwards takes back only the run's
// own, so a file's overrides go on holding in the files run after it,
// until a run-level override of the same target takes them back.
type carriedOverrides struct {
	mu        sync.Mutex
	resources map[string]*OverrideResource
	modules   map[string]*OverrideModule
}

// snapshot returns the overrides carried so far.
func (c *carriedOverrides) snapshot() ([]*OverrideResource, []*OverrideModule) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var resources []*OverrideResource
	for _, key := range sortedNames(c.resources) {
		resources = append(resources, c.resources[key])
	}
	var modules []*OverrideModule
	for _, key := range sortedNames(c.modules) {
		modules = append(modules, c.modules[key])
	}
	return resources, modules
}

// fileDone records what f leaves on the configuration under test, going
// through its runs of that configuration as OpenTofu transforms and
// resets it: each run sets the file's overrides and takes back its own;
// the clean-up does so again with the run that changed the state last.
func (c *carriedOverrides) fileDone(f *File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resources == nil {
		c.resources, c.modules = map[string]*OverrideResource{}, map[string]*OverrideModule{}
	}
	var lastApply *Run
	for _, run := range f.Runs {
		if run.Module != nil || run.Status == Skip || run.Status == Pending {
			continue
		}
		c.transformed(f, run)
		if run.Command == ApplyCommand {
			lastApply = run
		}
	}
	if lastApply != nil {
		c.transformed(f, lastApply)
	}
}

func (c *carriedOverrides) transformed(f *File, run *Run) {
	for _, o := range f.Overrides {
		c.resources[o.Addr.String()] = o
	}
	for _, o := range f.ModuleMocks {
		c.modules[o.Addr.String()] = o
	}
	for _, o := range run.Overrides {
		delete(c.resources, o.Addr.String())
	}
	for _, o := range run.ModuleMocks {
		delete(c.modules, o.Addr.String())
	}
}
