package cliconfig

import (
	"os"

	"github.com/hashicorp/hcl/hcl/ast"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/diags"
)

// Settings that Terraform's CLI configuration knows but Terrane does not use
// (or not yet); they are accepted silently so that existing files load.
var ignoredSettings = map[string]bool{
	"disable_checkpoint":           true,
	"disable_checkpoint_signature": true,
	"credentials_helper":           true,
	"host":                         true,
	"providers":                    true,
}

// Parse reads the settings written in one CLI configuration file. The
// result holds only what the file says: ProviderInstallation is nil when
// the file has no provider_installation block. Load adds the environment
// and the defaults.
func Parse(src []byte, filename string) (*Config, diags.Diagnostics) {
	d := &decoder{filename: filename}
	root := d.parseSyntax(src)
	if root == nil {
		return nil, d.diags
	}
	config := &Config{Filename: filename}
	for _, item := range root.Items {
		if len(item.Keys) == 0 {
			continue
		}
		name := firstKey(item)
		switch {
		case name == "plugin_cache_dir":
			if dir, ok := d.stringValue(item, name); ok {
				// Terraform expands environment variables here, so files
				// commonly say "$HOME/.terraform.d/plugin-cache".
				config.PluginCacheDir = os.ExpandEnv(dir)
			}
		case name == "plugin_cache_may_break_dependency_lock_file":
			if allowed, ok := d.boolValue(item, name); ok {
				config.PluginCacheMayBreakDependencyLockFile = allowed
			}
		case name == "provider_installation", name == "credentials", ignoredSettings[name]:
			// Blocks are decoded below, by name, because a JSON file can
			// split one of them over several items.
		default:
			d.warnAt(item.Pos(), "Unknown CLI configuration setting",
				"%s is not a CLI configuration setting and is ignored. Check its spelling.", name)
		}
	}
	config.ProviderInstallation = d.providerInstallation(root.Filter("provider_installation"))
	config.Credentials = d.credentials(root.Filter("credentials"))
	return config, d.diags
}

// credentials decodes credentials "HOST" { token = "..." } blocks.
func (d *decoder) credentials(items *ast.ObjectList) map[svchost.Hostname]Credentials {
	if len(items.Items) == 0 {
		return nil
	}
	result := make(map[svchost.Hostname]Credentials)
	for _, item := range items.Items {
		object, isBlock := item.Val.(*ast.ObjectType)
		if isBlock && len(item.Keys) == 0 && len(objectItems(object)) == 0 {
			// "credentials": {} in JSON, as logout leaves the
			// credentials file once its last host is removed.
			continue
		}
		if len(item.Keys) != 1 || !isBlock {
			d.errorAt(item.Pos(), "Invalid credentials block", "Write credentials blocks as credentials \"HOSTNAME\" { token = \"...\" }.")
			continue
		}
		given := firstKey(item)
		host, err := svchost.ForComparison(given)
		if err != nil {
			d.errorAt(item.Pos(), "Invalid credentials block", "%q is not a valid hostname: %s.", given, err)
			continue
		}
		if _, seen := result[host]; seen {
			d.errorAt(item.Pos(), "Duplicate credentials block", "Credentials for %s are given more than once; keep one block.", host)
			continue
		}
		creds := Credentials{DeclRange: *d.rangeAt(item.Pos())}
		for _, attr := range objectItems(object) {
			switch attrName := firstKey(attr); attrName {
			case "token":
				creds.Token, _ = d.stringValue(attr, "token")
			default:
				d.warnAt(attr.Pos(), "Unknown credentials setting", "%s is ignored: Terrane uses only token from a credentials block.", attrName)
			}
		}
		result[host] = creds
	}
	return result
}
