package pulumi

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/apparentlymart/go-versions/versions"
)

// Find returns the newest pulumi-resource-NAME in Pulumi plugin directory
// layouts: each of dirs, then $PULUMI_HOME/plugins (default
// ~/.pulumi/plugins), holding resource-NAME-vVERSION/pulumi-resource-NAME.
func Find(name string, dirs ...string) (string, error) {
	home := os.Getenv("PULUMI_HOME")
	if home == "" {
		if userHome, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(userHome, ".pulumi")
		}
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "plugins"))
	}
	for _, dir := range dirs {
		matches, _ := filepath.Glob(filepath.Join(dir, "resource-"+name+"-v*", "pulumi-resource-"+name))
		sort.Slice(matches, func(i, j int) bool { return pluginVersion(matches[i]).GreaterThan(pluginVersion(matches[j])) })
		if len(matches) > 0 {
			return matches[0], nil
		}
	}
	return "", fmt.Errorf("no pulumi-resource-%s found in %v: install it with `pulumi plugin install resource %s`, or put it in DIR/resource-%s-vVERSION/", name, dirs, name, name)
}

func pluginVersion(path string) versions.Version {
	dir := filepath.Base(filepath.Dir(path))
	for i := len(dir) - 1; i > 0; i-- {
		if dir[i-1:i+1] == "-v" {
			v, _ := versions.ParseVersion(dir[i+1:])
			return v
		}
	}
	return versions.Unspecified
}
