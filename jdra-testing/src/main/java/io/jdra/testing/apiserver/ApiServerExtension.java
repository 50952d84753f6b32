package io.jdra.testing.apiserver;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.apiserver.EmbeddedApiServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * JUnit 5 extension: one in-memory embedded API server per test class (stopped after the class),
 * injected as {@link KubernetesClient}, {@link EmbeddedApiServer} or {@link TestApiServer}
 * parameters. Use via {@link WithApiServer} or {@code @ExtendWith(ApiServerExtension.class)}.
 */
public final class ApiServerExtension
    implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(ApiServerExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    server(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    TestApiServer s = context.getStore(NS).remove("server", TestApiServer.class);
    if (s != null) {
      s.close();
    }
  }

  private static TestApiServer server(ExtensionContext context) {
    ExtensionContext classContext = context;
    while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
      classContext = classContext.getParent().get();
    }
    ExtensionContext c = classContext;
    return classContext
        .getStore(NS)
        .computeIfAbsent("server", k -> TestApiServer.start(transport(c)), TestApiServer.class);
  }

  /** The transport the test class's {@link WithApiServer} names (HTTP without one). */
  private static WithApiServer.Transport transport(ExtensionContext classContext) {
    return classContext
        .getTestClass()
        .flatMap(t -> AnnotationSupport.findAnnotation(t, WithApiServer.class))
        .map(WithApiServer::transport)
        .orElse(WithApiServer.Transport.HTTP);
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> t = p.getParameter().getType();
    return t == KubernetesClient.class || t == EmbeddedApiServer.class || t == TestApiServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    TestApiServer s = server(e);
    Class<?> t = p.getParameter().getType();
    if (t == KubernetesClient.class) {
      return s.client();
    }
    if (t == EmbeddedApiServer.class) {
      return s.server();
    }
    return s;
  }
}
