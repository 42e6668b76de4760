package web_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/internal/web"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

func newServer(t *testing.T) (*httptest.Server, *resourceservice.Service) {
	t.Helper()
	backend := memory.New()
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	service := resourceservice.New(backend, registry)
	for _, tenancy := range [][2]string{{"alpha", "prod"}, {"beta", "prod"}} {
		data, _ := anypb.New(&recordsv1.Workspace{Lineage: "l"})
		if _, err := service.Write(t.Context(), &pbresource.Resource{Id: records.WorkspaceID(tenancy[0], tenancy[1]), Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	tokens, err := resourceservice.ParseTokens([]string{"root", "alpha-only@alpha/*"})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(web.New(web.Options{Service: service, Tokens: tokens}))
	t.Cleanup(server.Close)
	return server, service
}

// streamUntilReady reads the event stream with token until its "ready"
// event and returns the record lines it saw.
func streamUntilReady(t *testing.T, url, token string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events: HTTP %d", resp.StatusCode)
	}
	var records []string
	lines := bufio.NewScanner(resp.Body)
	event := ""
	for lines.Scan() {
		line := lines.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "record":
			records = append(records, line)
		case strings.HasPrefix(line, "data: ") && event == "ready":
			return records
		}
	}
	t.Fatalf("the stream ended before ready: %v", lines.Err())
	return nil
}

func TestEventStreamShowsOnlyTheTokensTenancy(t *testing.T) {
	server, _ := newServer(t)
	all := streamUntilReady(t, server.URL, "root")
	if len(all) != 2 {
		t.Fatalf("full access saw %d records: %v", len(all), all)
	}
	alpha := streamUntilReady(t, server.URL, "alpha-only")
	if len(alpha) != 1 || !strings.Contains(alpha[0], `"project":"alpha"`) {
		t.Fatalf("alpha's token saw %v", alpha)
	}
}

func TestEveryRouteNeedsAToken(t *testing.T) {
	server, _ := newServer(t)
	for _, route := range []string{"GET /", "GET /index.html", "GET /api/events", "GET /api/history?project=alpha&workspace=prod&name=x", "POST /api/refresh?name=x"} {
		method, path, _ := strings.Cut(route, " ")
		for token, want := range map[string]int{"": http.StatusUnauthorized, "wrong": http.StatusForbidden} {
			req, _ := http.NewRequest(method, server.URL+path, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("%s with token %q: HTTP %d, want %d", route, token, resp.StatusCode, want)
			}
		}
	}
	req, _ := http.NewRequest(http.MethodGet, server.URL+"/api/history?project=beta&workspace=prod&name=x", nil)
	req.Header.Set("Authorization", "Bearer alpha-only")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("alpha's token reading beta's history: HTTP %d, want 403", resp.StatusCode)
	}
}

// Opening the page with ?token= moves the token into a cookie and takes it
// out of the address.
func TestTokenInTheAddressBecomesACookie(t *testing.T) {
	server, _ := newServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(server.URL + "/?token=root")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || strings.Contains(resp.Header.Get("Location"), "token") {
		t.Fatalf("HTTP %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookies %+v", cookies)
	}
	req, _ := http.NewRequest(http.MethodGet, server.URL+"/", nil)
	req.AddCookie(cookies[0])
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("with the cookie: HTTP %d", resp.StatusCode)
	}
}
