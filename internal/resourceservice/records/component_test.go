package records_test

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

func TestComponentChildValidation(t *testing.T) {
	svc := newService(t)
	ctx := t.Context()
	ws, err := svc.Write(ctx, record(t, records.WorkspaceID("proj", "prod"), nil, &recordsv1.Workspace{}))
	if err != nil {
		t.Fatal(err)
	}
	const urn = "urn:pulumi:terrane::terrane::tpulumi:index:Pair$tpulumi:index:Thing::p-left"
	id := records.ComponentChildID("proj", "prod", "tpulumi_pair.p", urn)
	valid := &recordsv1.ComponentChild{Component: "tpulumi_pair.p", Type: "tpulumi:index:Thing", Name: "p-left", Urn: urn, Id: "1", OutputsJson: []byte(`{"a":1}`)}
	cases := []struct {
		name  string
		id    *pbresource.ID
		owner *pbresource.ID
		data  *recordsv1.ComponentChild
		want  codes.Code
	}{
		{"valid", id, ws.GetId(), valid, codes.OK},
		{"no owner", id, nil, valid, codes.InvalidArgument},
		{"no URN", id, ws.GetId(), &recordsv1.ComponentChild{Component: "tpulumi_pair.p", Type: "t"}, codes.InvalidArgument},
		{"named after another component", records.ComponentChildID("proj", "prod", "tpulumi_pair.q", urn), ws.GetId(), valid, codes.InvalidArgument},
		{"outputs not JSON", id, ws.GetId(), &recordsv1.ComponentChild{Component: "tpulumi_pair.p", Type: "t", Urn: urn, OutputsJson: []byte("{")}, codes.InvalidArgument},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Write(ctx, record(t, tc.id, tc.owner, tc.data))
			if got := status.Code(err); got != tc.want {
				t.Errorf("write: code %s (%v), want %s", got, err, tc.want)
			}
		})
	}
}
