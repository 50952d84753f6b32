package io.jdra.controllers.manager;

import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.apiserver.WithApiServer.Transport;

/**
 * {@link ResourceClaimControllerIntegrationTest} with the controller manager's client in process,
 * as {@code jdra up} runs it.
 */
@WithApiServer(transport = Transport.IN_PROCESS)
class ResourceClaimControllerInProcessTest extends ResourceClaimControllerIntegrationTest {}
