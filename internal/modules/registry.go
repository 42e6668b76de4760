package modules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/plugin/discovery"
)

// registryClient speaks the module registry protocol (the host's
// modules.v1 service).
type registryClient struct {
	network *discovery.Network
}

func (c registryClient) packageURL(pkg tfaddr.ModulePackage) (*url.URL, error) {
	base, err := c.network.DiscoverService(pkg.Host, "modules.v1", "a module registry")
	if err != nil {
		return nil, err
	}
	return base.JoinPath(pkg.Namespace, pkg.Name, pkg.TargetSystem), nil
}

// versions lists the versions the registry has of a module package.
func (c registryClient) versions(ctx context.Context, pkg tfaddr.ModulePackage) (versions.List, error) {
	base, err := c.packageURL(pkg)
	if err != nil {
		return nil, err
	}
	var answer struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	err = c.network.GetJSON(ctx, base.JoinPath("versions").String(), &answer)
	if errors.Is(err, discovery.ErrHTTPNotFound) {
		return nil, fmt.Errorf("the registry %s has no module %s", pkg.Host.ForDisplay(), pkg.ForDisplay())
	}
	if err != nil {
		return nil, err
	}
	var list versions.List
	for _, module := range answer.Modules {
		for _, entry := range module.Versions {
			if version, err := versions.ParseVersion(entry.Version); err == nil {
				list = append(list, version)
			}
		}
	}
	list.Sort()
	return list, nil
}

// location asks where a module version's package is: the X-Terraform-Get
// header of a 204 answer, or the "location" of a JSON answer, resolved
// against the download URL.
func (c registryClient) location(ctx context.Context, pkg tfaddr.ModulePackage, version versions.Version) (string, error) {
	base, err := c.packageURL(pkg)
	if err != nil {
		return "", err
	}
	target := base.JoinPath(version.String(), "download")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.String(), nil)
	if err != nil {
		return "", err
	}
	c.network.Authorize(req)
	resp, err := c.network.HTTPClient().Do(req)
	if err != nil {
		return "", &discovery.ErrUnreachable{URL: target.String(), Err: err}
	}
	defer resp.Body.Close()
	location := resp.Header.Get("X-Terraform-Get")
	switch {
	case resp.StatusCode == http.StatusOK && location == "":
		var answer struct {
			Location string `json:"location"`
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err := json.Unmarshal(body, &answer); err != nil {
			return "", fmt.Errorf("%s answered neither an X-Terraform-Get header nor a location: %w", target, err)
		}
		location = answer.Location
	case resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusOK:
		return "", fmt.Errorf("%s answered %s", target, resp.Status)
	}
	if location == "" {
		return "", fmt.Errorf("%s did not say where the module package is", target)
	}
	return resolveLocation(target, location), nil
}

// resolveLocation resolves a relative location ("./pkg.zip", "/files/x")
// against the download URL; go-getter addresses such as "git::https://…"
// are kept as they are.
func resolveLocation(base *url.URL, location string) string {
	ref, err := url.Parse(location)
	if err != nil || ref.IsAbs() || forcedGetter.MatchString(location) {
		return location
	}
	if len(location) > 0 && location[0] != '.' && location[0] != '/' {
		return location // a go-getter shorthand such as github.com/org/repo
	}
	return base.ResolveReference(ref).String()
}
