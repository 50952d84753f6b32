package io.jdra.runtime.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.AnnotatedField;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that makes a mapper skip {@code metadata.managedFields} of every object while it
 * parses: what upstream's informer transform {@code trim} clears after decoding, never decoded.
 *
 * <p>It declares, for the {@code metadata} property of each {@link HasMetadata} class, what
 * {@code @JsonIgnoreProperties("managedFields")} on that property would: Jackson then gives the
 * property a copy of the {@link ObjectMeta} deserializer that skips the subtree token by token
 * ({@code skipChildren}) instead of building {@code ManagedFieldsEntry} and {@code FieldsV1} maps.
 * Only an object's own metadata is trimmed, as upstream's transform does: the {@code ObjectMeta} of
 * a pod template or a claim template is not the metadata of a {@code HasMetadata} class and keeps
 * whatever it carries. Serialization is not affected ({@code allowGetters}).
 *
 * <p>The trimmed list is fabric8's default for an absent field, an empty list: a decoded object is
 * the object decoded without this module, with {@code setManagedFields(new ArrayList<>())}. fabric8
 * writes an empty list as no field at all, so an update sent from a trimmed object leaves the
 * server's managedFields alone (an explicit {@code []} would reset them).
 */
final class TrimManagedFields extends SimpleModule {
  TrimManagedFields() {
    super("jdra-trim-managed-fields");
  }

  @Override
  public void setupModule(SetupContext context) {
    super.setupModule(context);
    context.insertAnnotationIntrospector(new Introspector());
  }

  private static final class Introspector extends NopAnnotationIntrospector {
    private static final JsonIgnoreProperties.Value MANAGED_FIELDS =
        JsonIgnoreProperties.Value.forIgnoredProperties("managedFields").withAllowGetters();

    @Override
    public JsonIgnoreProperties.Value findPropertyIgnoralByName(
        MapperConfig<?> config, Annotated a) {
      return isObjectsOwnMetadata(a) ? MANAGED_FIELDS : JsonIgnoreProperties.Value.empty();
    }

    /** The field or setter that holds the {@code ObjectMeta} of a {@code HasMetadata} class. */
    private static boolean isObjectsOwnMetadata(Annotated a) {
      if (a instanceof AnnotatedField f) {
        return f.getRawType() == ObjectMeta.class
            && HasMetadata.class.isAssignableFrom(f.getDeclaringClass());
      }
      if (a instanceof AnnotatedMethod m) {
        return m.getParameterCount() == 1
            && m.getRawParameterType(0) == ObjectMeta.class
            && HasMetadata.class.isAssignableFrom(m.getDeclaringClass());
      }
      return false;
    }
  }
}
