package io.jdra.testing.apiserver;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against an embedded API server started once for the class. Test methods and
 * constructors may take {@code KubernetesClient}, {@code EmbeddedApiServer} or {@link
 * TestApiServer} parameters. A subclass with {@code transport = IN_PROCESS} runs its parent's tests
 * with in-process clients.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ApiServerExtension.class)
public @interface WithApiServer {
  /** How the injected clients reach the server. */
  Transport transport() default Transport.HTTP;

  /** The transports of a test server's clients. */
  enum Transport {
    /** fabric8's Vert.x client over loopback HTTP, as components reach a real API server. */
    HTTP,
    /** In memory ({@code io.jdra.inprocess.InProcessClients}), as {@code jdra up} runs them. */
    IN_PROCESS
  }
}
