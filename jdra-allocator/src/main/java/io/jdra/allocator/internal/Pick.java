package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** One device chosen for one request during the search, with what must be undone. */
record Pick(
    RequestData request,
    Dev dev,
    boolean exclusive,
    boolean countersConsumed,
    String shareId,
    Map<String, Quantity> consumedCapacity) {}
