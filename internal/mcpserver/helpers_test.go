package mcpserver_test

import (
	"context"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

type perRPC string

func (p perRPC) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(p)}, nil
}
func (perRPC) RequireTransportSecurity() bool { return false }

func grpcBearer(key string) grpc.DialOption { return grpc.WithPerRPCCredentials(perRPC(key)) }

func specClient(conn grpc.ClientConnInterface) runsvcv1.SpecServiceClient {
	return runsvcv1.NewSpecServiceClient(conn)
}
