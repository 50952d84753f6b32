package io.jdra.runtime.cache;

import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.apiserver.WithApiServer.Transport;

/** {@link InformerFactoryTest} over the in-process transport: informers list, sync and follow. */
@WithApiServer(transport = Transport.IN_PROCESS)
class InformerFactoryInProcessTest extends InformerFactoryTest {}
