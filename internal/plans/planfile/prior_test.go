package planfile

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/terrane/terrane/internal/plans"
)

// A plan made in this process leaves its prior records' content to be
// encoded when a plan file is written; the file carries it as if it had
// been there all along.
func TestPriorRecordContentIsEncodedWhenThePlanIsWritten(t *testing.T) {
	asked := map[string]int{}
	plan := &plans.Plan{Workspace: "default",
		PriorRecords: []plans.PriorRecord{{Name: "null_resource.a", Kind: "ResourceInstance", Uid: "u", Generation: "g", Version: "1"}},
		PriorRecordData: func(name string) (*anypb.Any, error) {
			asked[name]++
			return anypb.New(wrapperspb.String("content of " + name))
		}}
	got, _, _ := writeAndRead(t, Contents{Plan: plan, Config: &ConfigSnapshot{}})
	if asked["null_resource.a"] != 1 || len(got.PriorRecords) != 1 {
		t.Fatalf("content asked for %v; read back %d records", asked, len(got.PriorRecords))
	}
	want, _ := anypb.New(wrapperspb.String("content of null_resource.a"))
	if !proto.Equal(got.PriorRecords[0].Data, want) {
		t.Errorf("record content %v, want %v", got.PriorRecords[0].Data, want)
	}

	plan.PriorRecordData = func(string) (*anypb.Any, error) { return nil, errors.New("gone") }
	err := Create(t.TempDir()+"/tfplan", Contents{Plan: plan, Config: &ConfigSnapshot{}})
	if err == nil || !strings.Contains(err.Error(), "null_resource.a") {
		t.Errorf("error %v; want one naming the record that could not be encoded", err)
	}
}
