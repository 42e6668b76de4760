package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"time"

	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/hashicorp/terraform-svchost/disco"

	"github.com/terrane/terrane/internal/version"
)

// Network is how Terrane reaches provider registries and network mirrors:
// the HTTP client, the credentials it presents, how it retries and whom it
// tells about download progress. The zero value works; a nil *Network
// means no network at all.
type Network struct {
	// Client sends every request; nil means a client with a 10-minute
	// overall timeout (provider packages can be hundreds of megabytes).
	Client *http.Client
	// Credentials supplies bearer tokens by host.
	Credentials Credentials
	// Services answers service discovery; nil means a discoverer using
	// Client's transport and Credentials.
	Services *disco.Disco
	// Retries is how many times a request failing transiently (connection
	// errors, 5xx, 429) is tried again; 0 means 3, negative means never.
	Retries int
	// RetryWait is the first pause before a retry, doubling each time; 0
	// means one second.
	RetryWait time.Duration
	// Progress, when set, is told how downloads of packages advance.
	Progress func(DownloadProgress)
}

// DownloadProgress reports how much of a package has arrived.
type DownloadProgress struct {
	URL string
	// Received and Total are bytes; Total is -1 when the server did not
	// say.
	Received, Total int64
	Done            bool
}

// ErrUnreachable means a registry or mirror could not be reached or kept
// failing; Err is the last failure.
type ErrUnreachable struct {
	URL string
	Err error
	// Host is set when the host's service discovery could not be
	// reached: the error then reads as OpenTofu's.
	Host string
}

func (e *ErrUnreachable) Error() string {
	if e.Host != "" {
		return fmt.Sprintf("could not connect to %s: %s", e.Host, e.Err)
	}
	return fmt.Sprintf("could not reach %s: %s", e.URL, e.Err)
}

func (e *ErrUnreachable) Unwrap() error { return e.Err }

// ErrHTTPNotFound is a 404 answer: "this registry does not have it".
var ErrHTTPNotFound = errors.New("not found")

// HTTPClient is the client requests go through.
func (n *Network) HTTPClient() *http.Client { return n.client() }

// Authorize adds the bearer token for the request's host, if any.
func (n *Network) Authorize(req *http.Request) { n.Credentials.authorize(req) }

func (n *Network) client() *http.Client {
	if n.Client != nil {
		return n.Client
	}
	return &http.Client{Timeout: 10 * time.Minute}
}

// services returns the discoverer, creating the default one on first use.
func (n *Network) services() *disco.Disco {
	if n.Services == nil {
		n.Services = disco.NewWithCredentialsSource(n.Credentials.Source())
		n.Services.SetUserAgent("Terrane/" + version.String())
		if n.Client != nil && n.Client.Transport != nil {
			// SetUserAgent wraps a default transport, so a custom one (such
			// as one trusting a private CA) replaces it afterwards.
			n.Services.Transport = n.Client.Transport
		}
	}
	return n.Services
}

// retriesPrefix is what the discoverer's retrying client puts before the
// failure of its last request.
var retriesPrefix = regexp.MustCompile(`(?:GET|HEAD) \S+ giving up after \d+ attempt\(s\): `)

// DiscoverService returns the base URL of a service (such as
// "providers.v1") on host, following the host's /.well-known/terraform.json.
func (n *Network) DiscoverService(host svchost.Hostname, serviceID, what string) (*url.URL, error) {
	found, err := n.services().Discover(host)
	discoveryURL := "https://" + host.ForDisplay() + "/.well-known/terraform.json"
	var networkErr disco.ErrServiceDiscoveryNetworkRequest
	switch {
	case errors.As(err, &networkErr):
		// The discoverer retries and says so, in text only; OpenTofu's
		// message names only the request's own failure.
		text := retriesPrefix.ReplaceAllString(err.Error(), "")
		return nil, &ErrUnreachable{URL: discoveryURL, Err: errors.New(text), Host: host.ForDisplay()}
	case err != nil:
		return nil, fmt.Errorf("service discovery at %s failed: %w", discoveryURL, err)
	}
	base, err := found.ServiceURL(serviceID)
	if err != nil {
		return nil, fmt.Errorf("%s is not %s: %w", host.ForDisplay(), what, err)
	}
	return base, nil
}

func (n *Network) retries() int {
	switch {
	case n.Retries < 0:
		return 0
	case n.Retries == 0:
		return 3
	default:
		return n.Retries
	}
}

func (n *Network) retryWait(attempt int) time.Duration {
	wait := n.RetryWait
	if wait == 0 {
		wait = time.Second
	}
	return wait << attempt
}

// errTransient marks a failure worth retrying.
type errTransient struct{ err error }

func (e errTransient) Error() string { return e.err.Error() }
func (e errTransient) Unwrap() error { return e.err }

// withRetries runs attempt until it succeeds, fails for good, or has been
// retried n.retries() times after transient failures, backing off between
// tries.
func (n *Network) withRetries(ctx context.Context, target string, attempt func() error) error {
	var err error
	for try := 0; ; try++ {
		err = attempt()
		var transient errTransient
		if err == nil || !errors.As(err, &transient) {
			return err
		}
		if try >= n.retries() {
			return &ErrUnreachable{URL: target, Err: transient.err}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(n.retryWait(try)):
		}
	}
}

// send performs one request with the host's credentials and classifies the
// answer: ErrHTTPNotFound for 404, errTransient for what may pass.
func (n *Network) send(req *http.Request) (*http.Response, error) {
	n.Credentials.authorize(req)
	req.Header.Set("User-Agent", "Terrane/"+version.String())
	resp, err := n.client().Do(req)
	if err != nil {
		if req.Context().Err() != nil {
			return nil, req.Context().Err()
		}
		return nil, errTransient{err}
	}
	switch {
	case resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent:
		return resp, nil
	case resp.StatusCode == http.StatusNotFound:
		resp.Body.Close()
		return nil, ErrHTTPNotFound
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		resp.Body.Close()
		return nil, errTransient{fmt.Errorf("the server answered %s", resp.Status)}
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		resp.Body.Close()
		return nil, fmt.Errorf("%s answered %s: set a token with a credentials block in the CLI configuration or a TF_TOKEN_ environment variable", req.URL.Host, resp.Status)
	default:
		resp.Body.Close()
		return nil, fmt.Errorf("%s answered %s", req.URL, resp.Status)
	}
}

// maxDocumentSize bounds the JSON documents and checksum files read into
// memory, so a misbehaving server cannot exhaust it.
const maxDocumentSize = 16 << 20

// getDocument fetches a small document, retrying transient failures.
func (n *Network) getDocument(ctx context.Context, target string) ([]byte, error) {
	var body []byte
	err := n.withRetries(ctx, target, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return err
		}
		resp, err := n.send(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxDocumentSize))
		if err != nil {
			return errTransient{err}
		}
		return nil
	})
	return body, err
}

// GetJSON fetches target and decodes its JSON body into into, retrying
// transient failures; a 404 answer is ErrHTTPNotFound.
func (n *Network) GetJSON(ctx context.Context, target string, into any) error {
	body, err := n.getDocument(ctx, target)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("%s did not answer valid JSON: %w", target, err)
	}
	return nil
}

// download writes the body at target into file, resuming with a Range
// request after a transient failure when the server allows it, and
// reporting progress.
func (n *Network) download(ctx context.Context, target string, file *os.File) error {
	var received int64
	return n.withRetries(ctx, target, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return err
		}
		if received > 0 {
			req.Header.Set("Range", "bytes="+strconv.FormatInt(received, 10)+"-")
		}
		resp, err := n.send(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusPartialContent && received > 0 {
			// The server sent the whole file again: start over.
			if err := restartFile(file); err != nil {
				return err
			}
			received = 0
		}
		total := resp.ContentLength
		if total >= 0 {
			total += received
		}
		counter := &progressWriter{network: n, url: target, received: &received, total: total}
		if _, err := io.Copy(io.MultiWriter(file, counter), resp.Body); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errTransient{err}
		}
		n.report(DownloadProgress{URL: target, Received: received, Total: total, Done: true})
		return nil
	})
}

func restartFile(file *os.File) error {
	if err := file.Truncate(0); err != nil {
		return err
	}
	_, err := file.Seek(0, io.SeekStart)
	return err
}

func (n *Network) report(progress DownloadProgress) {
	if n.Progress != nil {
		n.Progress(progress)
	}
}

// progressWriter counts bytes as they are written and reports them.
type progressWriter struct {
	network  *Network
	url      string
	received *int64
	total    int64
}

func (w *progressWriter) Write(p []byte) (int, error) {
	*w.received += int64(len(p))
	w.network.report(DownloadProgress{URL: w.url, Received: *w.received, Total: w.total})
	return len(p), nil
}
