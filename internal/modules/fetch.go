package modules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	getter "github.com/hashicorp/go-getter/v2"
)

// fetchPackage downloads a go-getter address (a git repository, an HTTP
// archive, a local directory) into dst, replacing what was there only once
// the download has succeeded.
func (i *Installer) fetchPackage(ctx context.Context, address, dst, pwd string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	staging, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	target := filepath.Join(staging, "package")
	client := &getter.Client{
		Getters: []getter.Getter{
			&getter.GitGetter{Detectors: []getter.Detector{new(getter.GitHubDetector), new(getter.GitDetector), new(getter.BitBucketDetector), new(getter.GitLabDetector)}},
			// The registry's own X-Terraform-Get answers are followed by
			// the installer; archives must not redirect again.
			&getter.HttpGetter{Client: i.network().HTTPClient(), Netrc: true, XTerraformGetDisabled: true},
			new(getter.FileGetter),
		},
		Decompressors:   getter.Decompressors,
		DisableSymlinks: true,
	}
	_, err = client.Get(ctx, &getter.Request{Src: address, Dst: target, Pwd: pwd, GetMode: getter.ModeDir, Copy: true})
	if err != nil {
		return fmt.Errorf("downloading %s: %w", address, err)
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return os.Rename(target, dst)
}
