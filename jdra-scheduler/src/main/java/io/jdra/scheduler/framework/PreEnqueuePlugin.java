package io.jdra.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * Gates pods before they enter activeQ: a pod whose PreEnqueue does not succeed waits in the
 * unschedulable pool without a scheduling attempt until an event this plugin registered arrives.
 * Called on informer threads; must be fast and must not call the API server.
 */
public interface PreEnqueuePlugin extends Plugin {
  Status preEnqueue(Pod pod);
}
