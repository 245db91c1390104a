# frozen_string_literal: true

# A Run end to end over TLS with an API key, and the failures of a wrong CA
# and a missing key. Run by tls_test.go, which starts a runsvc with its own
# CA, certificate and keys file and passes them in RUNSVC_TLS_TARGET,
# RUNSVC_TLS_CA, RUNSVC_TLS_WRONG_CA and RUNSVC_TLS_TOKEN.
require_relative "support"
require "json"

class TLSTest < Minitest::Test
  def client(ca: ENV.fetch("RUNSVC_TLS_CA"), api_key: ENV.fetch("RUNSVC_TLS_TOKEN"))
    Runsvc::Client.new(ENV.fetch("RUNSVC_TLS_TARGET"), tls: true, root_certs: File.read(ca), api_key: api_key, deadline: 10)
  end

  def test_a_run_end_to_end
    c = client
    spec = { name: "hello-tls-rb", model: { provider: "scripted", script: { turns: [{ text: "It is sunny." }] } } }
    c.spec.publish_spec(Runsvc::V1::PublishSpecRequest.decode_json(JSON.generate({ spec: spec })))
    run = c.run.start_run(spec: "hello-tls-rb", input: "weather?").run
    run = c.run.wait_run({ run_id: run.run_id, wait: { seconds: 10 } }, deadline: 20).run
    assert_equal [:RUN_STATE_COMPLETED, "It is sunny."], [run.state, run.answer]
  end

  def test_a_wrong_ca_is_unavailable
    err = assert_raises(Runsvc::Error) { client(ca: ENV.fetch("RUNSVC_TLS_WRONG_CA")).run.list_runs }
    assert_equal ["UNAVAILABLE", nil], [err.code, err.reason]
  end

  def test_no_key_is_unauthenticated
    err = assert_raises(Runsvc::AccessDenied) { client(api_key: nil).run.list_runs }
    assert_equal ["UNAUTHENTICATED", "UNAUTHENTICATED", false], [err.code, err.reason, err.retryable?]
  end
end
