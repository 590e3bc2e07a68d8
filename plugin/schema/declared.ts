/**
 * A model as declared by its file, before normalization: what the cross-file checks and the
 * relation resolution read.
 */
import type { AttributeDocument, ContentTypeDocument, LoadedComponent, LoadedDocument } from './document.js';

export interface Declared {
  uid: string;
  loaded: LoadedDocument<ContentTypeDocument> | LoadedComponent;
  isComponent: boolean;
  singularName: string;
  tableName: string;
  attributes: Record<string, AttributeDocument>;
}

