package io.jdra.scheduler.framework;

import java.util.List;

/**
 * The events after which a pod this plugin rejected may fit (upstream {@code EnqueueExtensions}). A
 * plugin that rejects pods without implementing it is treated as registering every event.
 */
public interface EnqueueExtensions extends Plugin {
  List<QueueingHint.EventWithHint> eventsToRegister();
}
