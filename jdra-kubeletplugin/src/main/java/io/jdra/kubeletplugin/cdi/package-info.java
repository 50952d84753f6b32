/**
 * Container Device Interface (CDI) spec files: the model ({@link
 * io.jdra.kubeletplugin.cdi.CdiSpec}), naming rules ({@link io.jdra.kubeletplugin.cdi.CdiNames})
 * and an atomic writer ({@link io.jdra.kubeletplugin.cdi.CdiWriter}). A DRA driver prepares a claim
 * by writing a spec whose device names carry the claim UID and returning their qualified names as
 * {@code cdiDeviceIds}; the container runtime reads the file when it creates the container.
 */
package io.jdra.kubeletplugin.cdi;
