package web

import (
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/resourceservice"
)

// sessionCookie carries the token after the page was opened with
// ?token=…, so the browser's later requests (files, event stream) need
// not put it in a URL again.
const sessionCookie = "terrane_token"

// tokenOf returns the bearer token of a request: the Authorization header,
// else the session cookie, else the token query parameter.
func tokenOf(r *http.Request) string {
	if auth := r.Header.Get("Authorization"); auth != "" {
		if token, ok := strings.CutPrefix(auth, "Bearer "); ok {
			return strings.TrimSpace(token)
		}
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		return c.Value
	}
	return r.URL.Query().Get("token")
}

// authorize checks the request's token and returns its grant, or writes
// the refusal (401 without a token, 403 with an unknown one).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) (resourceservice.Grant, bool) {
	grant, err := s.tokens.Authorize(tokenOf(r))
	if err == nil {
		return grant, true
	}
	code := http.StatusForbidden
	if status.Code(err) == codes.Unauthenticated {
		code = http.StatusUnauthorized
		w.Header().Set("WWW-Authenticate", `Bearer realm="terrane"`)
	}
	http.Error(w, status.Convert(err).Message()+": open the page with ?token=TOKEN or send Authorization: Bearer TOKEN", code)
	return grant, false
}

// withAuth wraps a handler with authorize. A token given in the query is
// moved into an HttpOnly cookie and the page reloaded without it, so it
// does not stay in the address bar or in history.
func (s *Server) withAuth(next func(http.ResponseWriter, *http.Request, resourceservice.Grant)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		grant, ok := s.authorize(w, r)
		if !ok {
			return
		}
		if token := r.URL.Query().Get("token"); token != "" && r.Method == http.MethodGet && r.Header.Get("Accept") != "text/event-stream" {
			http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", HttpOnly: true,
				Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
			clean := *r.URL
			query := clean.Query()
			query.Del("token")
			clean.RawQuery = query.Encode()
			http.Redirect(w, r, clean.RequestURI(), http.StatusSeeOther)
			return
		}
		next(w, r, grant)
	})
}
