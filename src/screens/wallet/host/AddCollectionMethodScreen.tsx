export { AddCollectionMethodScreen as default } from './CollectionMethods';
