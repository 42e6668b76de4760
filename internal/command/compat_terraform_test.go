package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requireTerraform returns the path of the terraform binary the
// compatibility tests compare against, skipping the test without one.
func requireTerraform(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed; compatibility is not checked")
	}
	if testing.Short() {
		t.Skip("compatibility with terraform is not checked in -short mode")
	}
	return path
}

// terraformEnv is an environment that keeps terraform off the network
// and away from the user's own configuration and variables.
func terraformEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	cliConfig := filepath.Join(home, "terraform.rc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TF_CLI_CONFIG_FILE=" + cliConfig,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
	}
}
