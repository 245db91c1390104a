# frozen_string_literal: true

# The runsvc client: Runsvc::Client for every service, Runsvc.classify and
# Runsvc.classify_status, the Runsvc::Error hierarchy, Runsvc.with_retry
# and Runsvc::ToolWorker. The generated messages and stubs are Runsvc::V1.
require "runsvc/classify"
require "runsvc/error"
require "runsvc/reasons"
require "runsvc/retry"
require "runsvc/client"
require "runsvc/worker"
