package io.jdra.apiserver;
