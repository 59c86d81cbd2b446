/**
 * The customer-service account's picture: an SVG that ships with the app (public/icons), so it
 * shows whatever the server has for the account and without any other host.
 */
export const CUSTOMER_SERVICE_AVATAR = `${import.meta.env.BASE_URL}icons/customer-service.svg`;

export function CustomerServiceAvatar({ size }: { size: number }) {
  return <img className="avatar" src={CUSTOMER_SERVICE_AVATAR} alt="" width={size} height={size} data-avatar="customer-service" />;
}
