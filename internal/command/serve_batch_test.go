package command

import (
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

func instanceData(t *testing.T) *anypb.Any {
	t.Helper()
	data, err := anypb.New(&recordsv1.ResourceInstance{Mode: recordsv1.ResourceMode_RESOURCE_MODE_MANAGED, Type: "null_resource", Name: "n",
		Provider: `provider["registry.terraform.io/hashicorp/null"]`, Current: &recordsv1.ObjectState{AttributesJson: []byte(`{"id":"1"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestServeBatchEnforcesWriteRules sends, with a token scoped to projA/wsA,
// raw batches that Write and Delete would refuse: a tombstone naming
// another tenancy's workspace (which would make the reaper delete that
// tenancy's records), records owned by another tenancy's workspace, an
// unregistered type, data of the wrong message, and changes of Uid, owner
// and status that only the service may make. Each is refused, and the
// other tenancy's records survive; the same token's ordinary writes and
// deletes through a client-side service still work.
func TestServeBatchEnforcesWriteRules(t *testing.T) {
	t.Parallel()
	addr := startServe(t, "-token", "admin", "-token", "alice@projA/wsA")
	admin, _ := clitest.RemoteService(t, addr, "admin")
	alice, aliceRaw := clitest.RemoteService(t, addr, "alice")
	ctx := t.Context()

	wsB := clitest.WriteRecord(t, admin, records.WorkspaceID("projB", "wsB"), nil, &recordsv1.Workspace{})
	instB := &pbresource.Resource{Id: records.InstanceID("projB", "wsB", "null_resource.n"), Owner: wsB.GetId(), Data: instanceData(t)}
	if _, err := admin.Write(ctx, instB); err != nil {
		t.Fatal(err)
	}
	wsA := clitest.WriteRecord(t, alice, records.WorkspaceID("projA", "wsA"), nil, &recordsv1.Workspace{})
	instA, err := alice.Write(ctx, &pbresource.Resource{Id: records.InstanceID("projA", "wsA", "null_resource.n"), Owner: wsA.GetId(), Data: instanceData(t)})
	if err != nil {
		t.Fatalf("an ordinary write through the token's own tenancy: %v", err)
	}

	tombstone := func(owner *pbresource.ID) *pbresource.Resource {
		data, err := anypb.New(&pbresource.Tombstone{Owner: owner})
		if err != nil {
			t.Fatal(err)
		}
		return &pbresource.Resource{Id: &pbresource.ID{Type: resourceservice.TombstoneType, Tenancy: wsA.GetId().GetTenancy(),
			Name: "tombstone-" + owner.GetUid(), Uid: ulid.Make().String()}, Generation: ulid.Make().String(), Data: data}
	}
	newInstance := func(name string, owner *pbresource.ID) *pbresource.Resource {
		return &pbresource.Resource{Id: &pbresource.ID{Type: records.ResourceInstanceType, Tenancy: wsA.GetId().GetTenancy(), Name: name, Uid: ulid.Make().String()},
			Owner: owner, Generation: ulid.Make().String(), Data: instanceData(t)}
	}
	changed := func(change func(*pbresource.Resource)) *pbresource.Resource {
		res := proto.Clone(instA).(*pbresource.Resource)
		change(res)
		return res
	}
	stringData, _ := anypb.New(wrapperspb.String("not a record"))
	attacks := []struct {
		name string
		ops  []store.Op
		want codes.Code
	}{
		{"tombstone naming another tenancy's workspace", []store.Op{{Kind: store.OpWrite, Resource: tombstone(wsB.GetId())}}, codes.InvalidArgument},
		{"tombstone without deleting its owner", []store.Op{{Kind: store.OpWrite, Resource: tombstone(wsA.GetId())}}, codes.InvalidArgument},
		{"tombstone beside a delete of another tenancy's workspace", []store.Op{
			{Kind: store.OpWrite, Resource: tombstone(wsB.GetId())},
			{Kind: store.OpDelete, ID: wsB.GetId(), Version: wsB.GetVersion()}}, codes.PermissionDenied},
		{"record owned by another tenancy's workspace", []store.Op{{Kind: store.OpWrite, Resource: newInstance("null_resource.owned_elsewhere", wsB.GetId())}}, codes.PermissionDenied},
		{"record in its tenancy owned by a made-up workspace", []store.Op{{Kind: store.OpWrite, Resource: newInstance("null_resource.fake_owner",
			&pbresource.ID{Type: records.WorkspaceType, Tenancy: wsA.GetId().GetTenancy(), Name: "wsA", Uid: ulid.Make().String()})}}, codes.InvalidArgument},
		{"unregistered type", []store.Op{{Kind: store.OpWrite, Resource: &pbresource.Resource{Id: &pbresource.ID{Type: &pbresource.Type{Group: "evil", GroupVersion: "v1", Kind: "Thing"},
			Tenancy: wsA.GetId().GetTenancy(), Name: "x", Uid: ulid.Make().String()}, Generation: ulid.Make().String(), Data: stringData}}}, codes.InvalidArgument},
		{"data of another message", []store.Op{{Kind: store.OpWrite, Resource: changed(func(r *pbresource.Resource) { r.Data, r.Generation = stringData, ulid.Make().String() })}}, codes.InvalidArgument},
		{"owner changed", []store.Op{{Kind: store.OpWrite, Resource: changed(func(r *pbresource.Resource) { r.Owner = wsB.GetId() })}}, codes.PermissionDenied},
		{"status written with content", []store.Op{{Kind: store.OpWrite, Resource: changed(func(r *pbresource.Resource) {
			r.Status = map[string]*pbresource.Status{"x": {ObservedGeneration: r.GetGeneration()}}
			r.Data, r.Generation = instanceData(t), ulid.Make().String()
			r.Data.Value = append(r.Data.Value, 0x12, 0x01, 'z') // another content: a new name field
		})}}, codes.InvalidArgument},
		{"content changed under the same generation", []store.Op{{Kind: store.OpWrite, Resource: changed(func(r *pbresource.Resource) {
			r.Metadata = map[string]string{"k": "v"}
		})}}, codes.InvalidArgument},
		{"deletion mark without Delete", []store.Op{{Kind: store.OpWrite, Resource: changed(func(r *pbresource.Resource) {
			r.Metadata = map[string]string{resourceservice.DeletionTimestampKey: time.Now().Format(time.RFC3339)}
			r.Generation = ulid.Make().String()
		})}}, codes.InvalidArgument},
	}
	for _, attack := range attacks {
		// The remote client keeps the code's name in its error.
		if _, err := aliceRaw.Batch(ctx, attack.ops); err == nil || !strings.Contains(err.Error(), attack.want.String()+":") {
			t.Errorf("%s: %v, want %s", attack.name, err, attack.want)
		}
	}
	// Give a reaper that took a forged tombstone time to act on it.
	time.Sleep(500 * time.Millisecond)
	for _, id := range []*pbresource.ID{wsB.GetId(), instB.GetId()} {
		if _, err := admin.Read(ctx, store.StrongConsistency, id); err != nil {
			t.Errorf("%s of the other tenancy is gone: %v", id.GetName(), err)
		}
	}
	// The rules refuse forgeries, not the service's own work: deleting the
	// token's workspace writes a tombstone beside the delete, and the
	// reaper then deletes the workspace's record.
	if err := alice.Delete(ctx, wsA.GetId(), resourceservice.DeleteOptions{Force: true}); err != nil {
		t.Fatalf("deleting the token's own workspace: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := alice.Read(ctx, store.StrongConsistency, instA.GetId())
		if status.Code(err) == codes.NotFound || strings.Contains(errString(err), "not found") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the deleted workspace's record was not reaped: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestServeBatchAcceptsTheEnginesWrites runs a workspace's life through a
// record store over a serve endpoint, as an engine using a remote store
// writes it: workspace, intent, result, outputs, check results, delete.
// The rules the endpoint checks must let every one of those writes through.
func TestServeBatchAcceptsTheEnginesWrites(t *testing.T) {
	t.Parallel()
	addr := startServe(t, "-token", "alice@proj/prod")
	service, _ := clitest.RemoteService(t, addr, "alice")
	st := recordstore.New(service, "proj", "prod")
	ctx := t.Context()
	if _, err := st.EnsureWorkspace(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := st.BeginRun(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	addr1, _ := addrs.ParseAbsResourceInstanceStr("null_resource.n[0]")
	provider := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}
	intent := &states.ResourceInstance{Intent: &states.Intent{Operation: states.IntentCreate, RunID: "run", StartedAt: time.Now()}}
	versions, err := st.Commit(ctx, []recordstore.InstanceChange{{Addr: addr1, ProviderConfig: provider, Instance: intent}})
	if err != nil {
		t.Fatalf("opening an intent: %v", err)
	}
	prior := versions[addr1.String()]
	result := &states.ResourceInstance{Current: &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1"}`), Status: states.ObjectReady}}
	if versions, err = st.Commit(ctx, []recordstore.InstanceChange{{Addr: addr1, ProviderConfig: provider, Instance: result, Prior: &prior}}); err != nil {
		t.Fatalf("recording a result: %v", err)
	}
	if err := st.WriteOutputs(ctx, map[string]*states.OutputValue{"x": {Value: cty.StringVal("y")}}); err != nil {
		t.Fatalf("writing outputs: %v", err)
	}
	if err := st.SetCheckResults(ctx, []byte(`[]`)); err != nil {
		t.Fatalf("writing check results: %v", err)
	}
	prior = versions[addr1.String()]
	if _, err := st.Commit(ctx, []recordstore.InstanceChange{{Addr: addr1, ProviderConfig: provider, Prior: &prior}}); err != nil {
		t.Fatalf("deleting a record: %v", err)
	}
	snap, err := st.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.InstanceVersions) != 0 || snap.State.Outputs["x"] == nil {
		t.Errorf("after the run the workspace holds %v and outputs %v", snap.InstanceVersions, snap.State.Outputs)
	}
}
