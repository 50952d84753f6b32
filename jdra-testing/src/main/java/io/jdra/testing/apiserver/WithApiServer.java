package io.jdra.testing.apiserver;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against an embedded API server started once for the class. Test methods and
 * constructors may take {@code KubernetesClient}, {@code EmbeddedApiServer} or {@link
 * TestApiServer} parameters.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ApiServerExtension.class)
public @interface WithApiServer {}
